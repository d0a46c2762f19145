"""legal pack: the day a step is due (a deadline an office note gives), so /today shows it on that day.

Revision ID: legal_0004_due_dates
Revises: legal_0003_entries
"""

import sqlalchemy as sa
from alembic import op

revision = "legal_0004_due_dates"
down_revision = "legal_0003_entries"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("legal_entries") as batch:
        batch.add_column(sa.Column("due_date", sa.Date, nullable=True))
    op.create_index("ix_legal_entries_due", "legal_entries", ["tenant_id", "due_date"])


def downgrade() -> None:
    op.drop_index("ix_legal_entries_due", "legal_entries")
    with op.batch_alter_table("legal_entries") as batch:
        batch.drop_column("due_date")
