"""A small Norinori used across the CLI, service and web tests (formats.md's example)."""

REGIONS = [[0, 0, 1, 2, 2], [1, 1, 1, 2, 2], [1, 3, 3, 2, 2], [3, 3, 3, 3, 3], [4, 4, 3, 3, 3]]
URL = "https://puzz.link/p?norinori/5/5/cag4ocjo"
SOLUTION = ["##...", "..##.", "##..#", "....#", "##..."]
