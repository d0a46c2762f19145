"""Where the project's own data files live, found from the code, never from the working directory."""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
PROMPTS_DIR = PROJECT_ROOT / "prompts"
SEEDS_DIR = PROJECT_ROOT / "seeds"
