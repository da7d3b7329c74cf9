"""Child process of `courses.repository.git_fetch`: `python -m courses.git_clone URL BRANCH DEST MAX_BYTES`.

Clones one branch at depth 1 with dulwich and prints the commit sha. Run in its own process so
the parent can kill it at the time limit; RLIMIT_FSIZE stops any single file (a pack) from
growing past MAX_BYTES. Exits non-zero with the reason on stderr.
"""

import resource
import sys


def main(argv: list[str]) -> int:
    """Clone and print the sha; 1 with a one-line reason on stderr on failure."""
    url, branch, dest, max_bytes = argv
    limit = int(max_bytes) * 2  # the pack and the checkout of the largest file
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    from dulwich import porcelain

    try:
        repo = porcelain.clone(url, dest, depth=1, branch=branch.encode(), checkout=True,
                               errstream=sys.stderr.buffer)
        with repo:
            sys.stdout.write(repo.head().decode() + "\n")
    except Exception as exc:
        sys.stderr.write(f"{type(exc).__name__}: {exc}\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
