"""The packs, and the `smriti` entry point that hands them to the core (which never imports a pack)."""

from bot.core.pack import PackCatalog, PackEntry

INSTALLED = PackCatalog((
    PackEntry("agri", "handlers.agri"),
    PackEntry("legal", "handlers.legal"),
    PackEntry("ap", "handlers.ap"),
))


def main(argv: list[str] | None = None) -> int:
    """The `smriti` command, serving the installed packs."""
    from bot.cli.smriti import main as run

    return run(argv, INSTALLED)
