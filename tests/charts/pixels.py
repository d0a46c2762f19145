"""Count what a chart actually drew: connected blobs of one colour in the PNG."""

from collections import deque
from pathlib import Path

import numpy as np
from PIL import Image


def colour_blobs(path: Path, hex_colour: str, tolerance: int = 40, min_pixels: int = 12) -> int:
    """Return how many separate blobs of roughly this colour the image holds."""
    target = np.array([int(hex_colour[i:i + 2], 16) for i in (1, 3, 5)])
    pixels = np.asarray(Image.open(path).convert("RGB")).astype(int)
    mask = np.abs(pixels - target).max(axis=2) <= tolerance
    seen = np.zeros_like(mask)
    blobs = 0
    for y, x in zip(*np.nonzero(mask)):
        if seen[y, x]:
            continue
        size, queue = 0, deque([(y, x)])
        seen[y, x] = True
        while queue:
            cy, cx = queue.popleft()
            size += 1
            for ny, nx in ((cy + 1, cx), (cy - 1, cx), (cy, cx + 1), (cy, cx - 1)):
                if 0 <= ny < mask.shape[0] and 0 <= nx < mask.shape[1] and mask[ny, nx] and not seen[ny, nx]:
                    seen[ny, nx] = True
                    queue.append((ny, nx))
        blobs += size >= min_pixels
    return blobs
