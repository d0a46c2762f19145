"""ap pack: the start of its branch of the schema's history (its tables come in the revisions after).

Revision ID: ap_0001
Revises:
"""

revision = "ap_0001"
down_revision = None
branch_labels = ("ap",)
depends_on = "core_0001"


def upgrade() -> None:
    pass


def downgrade() -> None:
    pass
