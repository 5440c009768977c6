"""The built-in genres; importing this package registers each of them."""

from gridproof.genres import nonogram, norinori

__all__ = ["nonogram", "norinori"]
