"""The one database: migrations make every table, run twice without harm, and the CLI runs them."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
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


def test_an_up_to_date_schema_is_not_checked_by_alembic_again_but_a_downgrade_is_undone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from alembic import command

    from bot.store.migrate import alembic_config

    database = Database(f"sqlite:///{tmp_path / 'smriti.db'}")
    upgrade(database, INSTALLED.migrations())
    ran: list[str] = []
    real_upgrade = command.upgrade
    monkeypatch.setattr(command, "upgrade", lambda config, target: (ran.append(target), real_upgrade(config, target)))
    upgrade(database, INSTALLED.migrations())
    assert ran == [], "nothing changed: Alembic is not run"
    command.downgrade(alembic_config(database, INSTALLED.migrations()), "ap_0001")
    assert "ap_ledger_entries" not in inspect(database.engine).get_table_names()
    upgrade(database, INSTALLED.migrations())
    assert ran == ["heads"] and "ap_ledger_entries" in inspect(database.engine).get_table_names()
    extra = tmp_path / "versions"
    extra.mkdir()
    (extra / "x_0001_nothing.py").write_text('revision = "x_0001"\ndown_revision = None\nbranch_labels = ("x",)\n'
                                             'depends_on = None\n\n\ndef upgrade() -> None:\n    pass\n\n\n'
                                             'def downgrade() -> None:\n    pass\n')
    upgrade(database, [*INSTALLED.migrations(), extra])
    assert ran == ["heads", "heads"], "a new migration file runs the upgrade"
    database.dispose()
