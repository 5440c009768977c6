"""gridproof: pencil-puzzle engines in which every published puzzle is proven unique."""

from gridproof.core.errors import CodeError, GenerationError, GridproofError

__version__ = "0.1.0"
ENGINE_VERSION = __version__

__all__ = ["ENGINE_VERSION", "CodeError", "GenerationError", "GridproofError", "__version__"]
