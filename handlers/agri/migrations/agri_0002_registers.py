"""agri pack: its registers, one row per (tenant, kind, natural key), and a version per tenant for caches.

Revision ID: agri_0002
Revises: agri_0001
"""

from bot.store.registers import create_register_tables

revision = "agri_0002"
down_revision = "agri_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_register_tables("agri_records", "agri_register_versions")


def downgrade() -> None:
    from alembic import op

    op.drop_table("agri_register_versions")
    op.drop_table("agri_records")
