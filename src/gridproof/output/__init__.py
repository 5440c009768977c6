"""What gridproof writes for people rather than programs, each from data the engine gives.

- `rendering`: a puzzle as SVG, PNG or PDF sheets, from its genre's drawing (`core.drawing`).
- `charts`: a study's tables as SVG bar charts (matplotlib, the `render` extra).
- `picture`: an image file read into the start of a Nonogram (Pillow, the `picture` extra).

Nothing here is imported by `import gridproof` until it is used.
"""
