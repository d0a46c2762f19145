"""legal pack: its registers, one row per (tenant, kind, natural key), and a version per tenant for caches.

Revision ID: legal_0002
Revises: legal_0001
"""

from bot.store.registers import create_register_tables

revision = "legal_0002"
down_revision = "legal_0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    create_register_tables("legal_records", "legal_register_versions")


def downgrade() -> None:
    from alembic import op

    op.drop_table("legal_register_versions")
    op.drop_table("legal_records")
