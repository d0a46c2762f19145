"""agri pack: saved visits and their outcomes as records, one row per (tenant, visit), the truth for exact
questions (a farmer's last visit, pending follow-ups, counts); memory is written from them.

Revision ID: agri_0003_visits
Revises: agri_0002
"""

import sqlalchemy as sa
from alembic import op

revision = "agri_0003_visits"
down_revision = "agri_0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "agri_visits",
        sa.Column("tenant_id", sa.String(41), primary_key=True),
        sa.Column("visit_id", sa.String(120), primary_key=True),
        sa.Column("key", sa.String(120), nullable=False),
        sa.Column("document_id", sa.String(200), nullable=False),
        sa.Column("farmer_id", sa.String(64), nullable=False),
        sa.Column("village", sa.String(80), nullable=False),
        sa.Column("crop", sa.String(64), nullable=False),
        sa.Column("officer_id", sa.String(64), nullable=False),
        sa.Column("visit_date", sa.Date(), nullable=False),
        sa.Column("source", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("tenant_id", "key", name="uq_agri_visits_tenant_key"),
    )
    op.create_index("ix_agri_visits_farmer", "agri_visits", ["tenant_id", "farmer_id", "visit_date"])
    op.create_index("ix_agri_visits_village", "agri_visits", ["tenant_id", "village", "visit_date"])
    op.create_table(
        "agri_outcomes",
        sa.Column("tenant_id", sa.String(41), primary_key=True),
        sa.Column("visit_id", sa.String(120), primary_key=True),
        sa.Column("document_id", sa.String(200), nullable=False),
        sa.Column("farmer_id", sa.String(64), nullable=False),
        sa.Column("village", sa.String(80), nullable=False),
        sa.Column("crop", sa.String(64), nullable=False),
        sa.Column("outcome_date", sa.Date(), nullable=False),
        sa.Column("result", sa.String(16), nullable=False),
        sa.Column("data", sa.JSON(), nullable=False),
        sa.Column("saved_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_agri_outcomes_village", "agri_outcomes", ["tenant_id", "village", "outcome_date"])


def downgrade() -> None:
    op.drop_table("agri_outcomes")
    op.drop_table("agri_visits")
