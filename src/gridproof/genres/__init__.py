"""The built-in genres; importing this package registers each of them."""

from gridproof.genres import nondango, nonogram, norinori

__all__ = ["nondango", "nonogram", "norinori"]
