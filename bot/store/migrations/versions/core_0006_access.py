"""Core: territory grants — villages an officer is given on top of their own.

Revision ID: core_0006
Revises: core_0005
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0006"
down_revision = "core_0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "territory_grants",
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("village", sa.String(64), primary_key=True),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("territory_grants")
