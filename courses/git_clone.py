"""Child process of `courses.repository.git_fetch`:
`python -m courses.git_clone URL BRANCH DEST MAX_BYTES ALLOW_PRIVATE`.

Clones one branch at depth 1 with dulwich and prints the commit sha. Run in its own process so
the parent can kill it at the time limit; RLIMIT_FSIZE stops any single file (a pack) from
growing past MAX_BYTES. Unless ALLOW_PRIVATE is "1", every name the clone resolves must
resolve to public addresses only, checked when it connects (not only before, in the parent:
a host may re-resolve in between). Exits non-zero with the reason on stderr.
"""

import resource
import socket
import sys

from courses.network_addresses import public_only_resolver


def main(argv: list[str]) -> int:
    """Clone and print the sha; 1 with a one-line reason on stderr on failure."""
    url, branch, dest, max_bytes, allow_private = argv
    if allow_private != "1":
        socket.getaddrinfo = public_only_resolver(socket.getaddrinfo)  # this process only
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
