"""A page image made easier for Tesseract: uneven light evened out, the page turned level, optionally enlarged.

A phone photo of a printout is lit unevenly (a hand's shadow, a lamp) and held a few degrees off level; a
scanner feeds a sheet slightly turned. Tesseract reads rows of a table as lines only when they are level, and
reads dark-on-grey poorly, so the photo is divided by an estimate of its own lighting and turned by the angle
at which its rows line up best. Each step is a few hundred milliseconds on a page.
"""

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from PIL.Image import Image

Preparation = Literal["as_is", "levelled", "levelled_large"]
"""How a page image is prepared before Tesseract: as it came; lit evenly and levelled; the same enlarged 1.5x
(small print read from a distant photo)."""

_MAX_SKEW = 6.0
_SKEW_STEP = 0.2
_ENLARGE = 1.5


def prepare(image: "Image", preparation: Preparation) -> "Image":
    """The greyscale page image prepared for Tesseract as `preparation` says."""
    from PIL import Image as PILImage

    if preparation == "as_is":
        return image
    even = even_light(image)
    angle = skew_angle(even)
    if abs(angle) >= _SKEW_STEP / 2:
        even = even.rotate(angle, resample=PILImage.Resampling.BICUBIC, expand=True, fillcolor=255)
    if preparation == "levelled_large":
        even = even.resize((int(even.width * _ENLARGE), int(even.height * _ENLARGE)), PILImage.Resampling.LANCZOS)
    return even


def even_light(image: "Image") -> "Image":
    """The image divided by its background (ink removed by a maximum filter, then blurred): a shadow or a
    yellowish sheet becomes white paper, print stays dark."""
    import numpy as np
    from PIL import Image as PILImage, ImageFilter

    small = image.resize((max(image.width // 4, 1), max(image.height // 4, 1)))
    background = small.filter(ImageFilter.MaxFilter(9)).filter(ImageFilter.GaussianBlur(8)).resize(image.size)
    page = np.asarray(image, dtype=np.float32)
    light = np.maximum(np.asarray(background, dtype=np.float32), 1.0)
    return PILImage.fromarray(np.clip(page / light * 255.0, 0, 255).astype(np.uint8))


def skew_angle(image: "Image") -> float:
    """The rotation (degrees, counter-clockwise) that makes the printed rows level: the angle whose row
    profile of ink changes most sharply from row to row (text lines and the gaps between them)."""
    import numpy as np
    from PIL import Image as PILImage

    small = image.resize((max(image.width // 2, 1), max(image.height // 2, 1)))
    ink = PILImage.fromarray(((np.asarray(small) < 128) * 255).astype(np.uint8))
    best, best_angle = -1.0, 0.0
    steps = int(round(2 * _MAX_SKEW / _SKEW_STEP))
    for step in range(steps + 1):
        angle = -_MAX_SKEW + step * _SKEW_STEP
        profile = np.asarray(ink.rotate(angle, resample=PILImage.Resampling.NEAREST), dtype=np.float32).sum(axis=1)
        sharpness = float(np.square(np.diff(profile)).sum())
        if sharpness > best:
            best, best_angle = sharpness, angle
    return best_angle
