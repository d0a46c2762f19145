"""Operations tests reuse the transports fixtures (a PNG for the echo pack)."""

from tests.transports.conftest import png_image  # noqa: F401  # a fixture, used by name
