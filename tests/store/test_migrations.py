"""The one database: migrations make every table, run twice without harm, and the CLI runs them."""

import os
import subprocess
import sys
from pathlib import Path

from sqlalchemy import inspect

from bot.store import Database, upgrade
from bot.store.tenants import ensure_tenant, tenant_ids
from handlers import INSTALLED


def test_upgrade_is_idempotent_and_makes_the_tenant_table(tmp_path: Path) -> None:
    database = Database(f"sqlite:///{tmp_path / 'smriti.db'}")
    upgrade(database, INSTALLED.migrations())
    upgrade(database, INSTALLED.migrations())
    assert "tenants" in inspect(database.engine).get_table_names()
    ensure_tenant(database, "greenfield")
    ensure_tenant(database, "greenfield")
    assert tenant_ids(database) == ["greenfield"]
    database.dispose()


def test_every_installed_pack_has_a_branch_of_migrations() -> None:
    assert {p.parent.name for p in INSTALLED.migrations()} == {"agri", "legal", "ap"}


def test_smriti_db_upgrade_makes_the_database_under_smriti_home(tmp_path: Path) -> None:
    env = {**os.environ, "SMRITI_HOME": str(tmp_path)}
    env.pop("SMRITI_DATABASE_URL", None)
    result = subprocess.run([sys.executable, "-m", "bot.cli.smriti", "db", "upgrade"], env=env, capture_output=True,
                            text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "up to date" in result.stdout
    assert (tmp_path / "smriti.db").exists()
