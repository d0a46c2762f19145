"""Cleaning a photographed or scanned page before Tesseract reads it again: upscale, despeckle, even light, deskew.

A phone photo of a faint photocopy (grey type on grey paper, small, a few degrees crooked, darker towards one
corner, speckled) gives Tesseract nothing at all. Each step fixes one of those: small type is enlarged
(Tesseract wants letters some 20-30 pixels high); specks are taken out by a median filter; uneven light is
taken out against the paper's own shade (the page with its type closed over and blurred) and the contrast
stretched to black on white; and the page is turned upright by the angle at which its rows of text line up
best (the row profile is sharpest). The grey page is then thresholded by Tesseract itself (Otsu): a hard
threshold here lost thin strokes of the faint pages it was tried on, so only the paper is made white (above
Otsu's level). Pillow only.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.Image import Image

TARGET_WIDTH = 2000
"""A page narrower than this is enlarged towards it (at most MAX_UPSCALE times)."""
MAX_UPSCALE = 3.0
MAX_SKEW = 5.0
"""Degrees either way searched for the page's tilt; a photo more crooked than this is retaken, not read."""
_SKEW_STEP = 0.25
_PROFILE_WIDTH = 700
"""The width the page is shrunk to while its tilt is searched: enough to tell rows apart, cheap to turn."""


def prepared(image: "Image") -> "Image":
    """The page (greyscale) enlarged, despeckled, evened and upright."""
    from PIL import Image as PILImage
    from PIL import ImageFilter

    image = evened(upscaled(image).filter(ImageFilter.MedianFilter(5)))
    image = image.rotate(-skew(image), expand=True, fillcolor=255, resample=PILImage.Resampling.BICUBIC)
    return whitened(image)


def upscaled(image: "Image") -> "Image":
    if image.width >= TARGET_WIDTH:
        return image
    factor = min(MAX_UPSCALE, TARGET_WIDTH / max(image.width, 1))
    from PIL import Image as PILImage

    return image.resize((int(image.width * factor), int(image.height * factor)), PILImage.Resampling.LANCZOS)


def evened(image: "Image") -> "Image":
    """The page with its paper's shade divided out (white paper everywhere) and the contrast stretched."""
    from PIL import Image as PILImage
    from PIL import ImageChops, ImageFilter, ImageOps

    small = image.resize((max(1, image.width // 8), max(1, image.height // 8)), PILImage.Resampling.BOX)
    # The paper: the page with its type closed over (a max filter) and blurred.
    paper = small.filter(ImageFilter.MaxFilter(5)).filter(ImageFilter.GaussianBlur(6)).resize(
        image.size, PILImage.Resampling.BILINEAR)
    # 255 - (paper - page): the paper's shade is gone, the type keeps its darkness against it.
    flat = ImageChops.invert(ImageChops.subtract(paper, image))
    return ImageOps.autocontrast(flat, cutoff=1)


def skew(image: "Image") -> float:
    """The page's tilt in degrees (counter-clockwise positive): where its row profile is sharpest."""
    from PIL import Image as PILImage
    from PIL import ImageOps

    factor = _PROFILE_WIDTH / max(image.width, 1)
    small = ImageOps.invert(image.resize((_PROFILE_WIDTH, max(1, int(image.height * factor))),
                                         PILImage.Resampling.BOX))
    best, sharpest = 0.0, -1.0
    steps = int(MAX_SKEW / _SKEW_STEP)
    for index in range(-steps, steps + 1):
        angle = index * _SKEW_STEP
        turned = small.rotate(angle, expand=False, fillcolor=0, resample=PILImage.Resampling.BILINEAR)
        # Each row's ink (the image squeezed to one column); rows of text and gaps between them alternate
        # most sharply when the page is level.
        profile = list(turned.resize((1, turned.height), PILImage.Resampling.BOX).tobytes())
        sharpness = sum((b - a) ** 2 for a, b in zip(profile, profile[1:], strict=False))
        if sharpness > sharpest:
            best, sharpest = angle, sharpness
    return -best


def whitened(image: "Image") -> "Image":
    """The paper made plain white above Otsu's level (the level that best separates the page's two greys); the
    type keeps its greys, so thin strokes a hard black-and-white cut would break stay whole."""
    histogram = image.histogram()[:256]
    total = sum(histogram)
    weighted = sum(level * count for level, count in enumerate(histogram))
    below = below_weighted = 0.0
    level_at, best = 127, -1.0
    for level, count in enumerate(histogram):
        below += count
        if below == 0 or below == total:
            continue
        below_weighted += level * count
        spread = below * (total - below) * (below_weighted / below - (weighted - below_weighted) / (total - below)) ** 2
        if spread > best:
            level_at, best = level, spread
    return image.point(lambda value: 255 if value > level_at else value)
