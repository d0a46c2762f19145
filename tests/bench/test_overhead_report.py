"""The overhead section's report splits the bot's share honestly (issue 30): the headline stays the overall
share of wall time, and the messages that call memory and those that cannot are shown apart."""

from bench.overhead import Sample, report


def test_the_report_gives_the_overall_share_and_the_share_of_the_messages_that_call_memory() -> None:
    samples = [Sample(kind="note -> card", wall_ms=50.0, memory_ms=0.0, calls=0),
               Sample(kind="Save (retain)", wall_ms=500.0, memory_ms=480.0, calls=1),
               Sample(kind="/brief (2 recalls)", wall_ms=450.0, memory_ms=440.0, calls=2)]
    lines = report(samples, rounds=1)
    overall = next(line for line in lines if line.strip().startswith("overall:"))
    calling = next(line for line in lines if "messages that call memory" in line)
    alone = next(line for line in lines if "messages with no memory call" in line)
    # 80 ms of 1000 are the bot's: 8% overall, not met; 30 of 950 (3%) for the messages that call memory, met.
    assert "8% of wall time" in overall and "not met" in overall
    assert "(2): bot overhead is 3% of their wall time" in calling and calling.endswith(": met")
    assert "p50 50.0 ms" in alone and "5% of the wall time" in alone and "62% of the overhead" in alone
    note_row = next(line for line in lines if line.strip().startswith("note -> card"))
    assert note_row.rstrip().endswith("100%")
