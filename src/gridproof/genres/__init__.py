"""The built-in genres; importing this package registers each of them."""

from gridproof.genres import norinori

__all__ = ["norinori"]
