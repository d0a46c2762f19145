"""Core: a kept delivery the transport could not handle after bounded retries is marked failed (kept, listed by
`smriti queue list`, no longer queued at each start nor counted against readiness).

Revision ID: core_0013_inbox_failed
Revises: core_0012_ops
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0013_inbox_failed"
down_revision = "core_0012_ops"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("inbox") as batch:
        batch.add_column(sa.Column("attempts", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("failed_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("last_error", sa.Text, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("inbox") as batch:
        batch.drop_column("last_error")
        batch.drop_column("failed_at")
        batch.drop_column("attempts")
