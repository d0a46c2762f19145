"""Core: strangers answered at most once an hour across every worker (a keyed hash of the sender, never the
sender), with the hash key shared by the workers.

Revision ID: core_0012_ops
Revises: core_0011_web
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0012_ops"
down_revision = "core_0011_web"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "shared_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("secret", sa.String(64), nullable=False),
    )
    op.create_table(
        "stranger_answers",
        sa.Column("digest", sa.String(64), primary_key=True),
        sa.Column("answered_at", sa.DateTime(timezone=True), nullable=False, index=True),
    )


def downgrade() -> None:
    op.drop_table("stranger_answers")
    op.drop_table("shared_keys")
