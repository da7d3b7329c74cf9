"""The parser's place in the token list: looking ahead, consuming, counting nodes, and the
messages for a token that does not belong where it is or a bracket left open."""

from __future__ import annotations

from grading.checkers.mathparse.errors import FormatError
from grading.checkers.mathparse.limits import MAX_NODES
from grading.checkers.mathparse.nodes import Node
from grading.checkers.mathparse.tokenizer import SPECIAL_MESSAGES, Token

__all__ = ["TokenCursor"]


class TokenCursor:
    """A position in ``tokens`` (which end with an "end" token) and the nodes built so far."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.i = 0
        self.nodes = 0
        self.parenless: str | None = None  # set right after a call written without brackets

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        tok = self.tokens[self.i]
        if tok.kind != "end":
            self.i += 1
        self.parenless = None
        return tok

    def previous(self) -> Token | None:
        return self.tokens[self.i - 1] if self.i > 0 else None

    def count(self, node: Node) -> Node:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise FormatError(
                f"the answer is too complicated (more than {MAX_NODES} parts); simplify it",
                getattr(node, "pos", None),
            )
        return node

    def unexpected(self, tok: Token) -> FormatError:
        if tok.kind == "comma":
            return FormatError(SPECIAL_MESSAGES[","] % {"pos": tok.pos}, tok.pos)
        return FormatError(f"unexpected '{tok.raw}' at character {tok.pos}", tok.pos)

    def missing(self, want: str, open_tok: Token) -> FormatError:
        return FormatError(
            f"missing '{want}' to close the '{open_tok.raw}' opened at character {open_tok.pos}",
            open_tok.pos,
        )

    def expect_close(self, open_tok: Token, want: str) -> None:
        tok = self.peek()
        if tok.kind == "close" and tok.text == want:
            self.advance()
            return
        if tok.kind == "close":
            raise FormatError(
                f"'{tok.raw}' at character {tok.pos} does not match the '{open_tok.raw}' "
                f"opened at character {open_tok.pos}",
                tok.pos,
            )
        if tok.kind == "end":
            raise self.missing(want, open_tok)
        raise self.unexpected(tok)
