"""ap pack: its registers, one row per (tenant, kind, natural key), and a version per tenant for caches.

Revision ID: ap_0003
Revises: ap_0001
"""

from bot.store.registers import create_register_tables

revision = "ap_0003"
down_revision = "ap_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_register_tables("ap_records", "ap_register_versions")


def downgrade() -> None:
    from alembic import op

    op.drop_table("ap_register_versions")
    op.drop_table("ap_records")
