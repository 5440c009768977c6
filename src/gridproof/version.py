"""The package's version, which is also the engine's: what a stored verdict was counted by."""

__version__ = "0.1.0"
ENGINE_VERSION = __version__
