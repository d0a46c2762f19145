"""Core: follow-ups, APScheduler's job table on the same database, and leases (who runs the jobs).

Revision ID: core_0005
Revises: core_0004
"""

import sqlalchemy as sa
from alembic import op

revision = "core_0005"
down_revision = "core_0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "followups",
        sa.Column("followup_id", sa.String(48), primary_key=True),
        sa.Column("pack", sa.String(16), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("due_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("asked_at", sa.DateTime(timezone=True)),
    )
    op.create_index("ix_followups_status_due", "followups", ["status", "due_at"])
    # The layout APScheduler 3's SQLAlchemyJobStore expects (it would otherwise create it itself).
    op.create_table(
        "apscheduler_jobs",
        sa.Column("id", sa.Unicode(191), primary_key=True),
        sa.Column("next_run_time", sa.Float(25), index=True),
        sa.Column("job_state", sa.LargeBinary, nullable=False),
    )
    op.create_table(
        "leases",
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
    )


def downgrade() -> None:
    for table in ("leases", "apscheduler_jobs", "followups"):
        op.drop_table(table)
