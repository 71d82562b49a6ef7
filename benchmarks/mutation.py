"""Mutation testing of the engine: prints figures, never asserts.

Runs mutmut (configured in pyproject.toml's [tool.mutmut]: src/rules is
mutated, tests/rules without test_replay_hashes.py run against each mutant),
or reads the results of a finished run in mutants/, and prints per module of
src/rules how many mutants the tests killed.

How a mutant is counted (mutmut's own statuses):

- killed: a test failed against it (mutmut also counts pytest's internal
  error, exit code 3, as a kill);
- survived: every test that reaches the mutated function passed;
- no tests: no test in tests/rules calls the mutated function, so nothing
  can kill it. Counted AGAINST the kill rate, like a survivor;
- timeout: the tests ran past mutmut's limit (e.g. a mutant that loops for
  ever). Counted against the kill rate, not as a kill;
- suspicious (and segfault, i.e. a killed worker): the run ended oddly.
  Counted against the kill rate;
- not checked: not run yet (a partial run). Left OUT of the kill rate and
  shown in its own column.

    kill % = killed / (killed + survived + no tests + timeout + suspicious)

Usage:
  python3 benchmarks/mutation.py                    # run everything, then print
  python3 benchmarks/mutation.py --no-run           # print the last run's results
  python3 benchmarks/mutation.py --modules movement,muster --survivors
  python3 benchmarks/mutation.py --rulebook --max-children 2

--modules (or --rulebook, the modules that carry the rulebook's procedures)
limits both the run and the table; each named module's mutants are run again
even if an earlier run checked them. Without it, `mutmut run` checks only
the mutants it has no result for (all of them, the first time). A full run
takes a long time (see README.md); run it under `nice` on a shared machine.
--rerun-survivors runs again only the mutants the last run left alive (new
tests cannot bring a killed mutant back). --survivors lists the mutants that
were not killed, per module; --diff also prints each one's diff
(`mutmut show NAME`).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "rules"
MUTANTS = ROOT / "mutants" / "src" / "rules"

# The modules that carry the rulebook's procedures, in the order of play.
RULEBOOK = (
    "setup reinforcement bidding movement muster stack_moves arrival battle "
    "combat casualties retreat control victory mori_box decks sequence"
).split()

# mutmut's exit codes (mutmut/stats.py, status_by_exit_code), folded into
# the columns printed here; any other code is "suspicious".
STATUS_BY_EXIT_CODE = {
    1: "killed",
    3: "killed",
    0: "survived",
    5: "no tests",
    33: "no tests",
    34: "skipped",
    35: "suspicious",
    36: "timeout",
    -24: "timeout",
    24: "timeout",
    152: "timeout",
    255: "timeout",
    -11: "suspicious",
    -9: "suspicious",
    37: "killed",  # caught by a type check (none is configured)
    None: "not checked",
}
COUNTED = ("killed", "survived", "no tests", "timeout", "suspicious")


def all_modules() -> list[str]:
    """Modules of src/rules as dotted names below it: "movement", "infra.record"."""
    return sorted(
        ".".join(p.relative_to(SOURCE).with_suffix("").parts)
        for p in SOURCE.rglob("*.py")
        if p.stem != "__init__" and "__pycache__" not in p.parts
    )


def status(exit_code: int | None) -> str:
    return STATUS_BY_EXIT_CODE.get(exit_code, "suspicious")


def read_results(module: str) -> dict[str, str] | None:
    """Mutant name -> status for one module, from mutmut's meta file."""
    meta = MUTANTS / (module.replace(".", "/") + ".py.meta")
    if not meta.exists():
        return None
    data = json.loads(meta.read_text(encoding="utf-8"))
    return {name: status(code) for name, code in data["exit_code_by_key"].items()}


def mutmut() -> str:
    """The mutmut command (mutmut asks to be run as `mutmut`, not `python -m mutmut`)."""
    beside = Path(sys.executable).parent / "mutmut"
    found = shutil.which("mutmut") or (str(beside) if beside.exists() else None)
    if found is None:
        sys.exit("mutmut is not installed: python3 -m pip install -e '.[mutation]'")
    return found


def run_mutmut(modules: list[str] | None, max_children: int, survivors_only: bool = False) -> float:
    command = [mutmut(), "run", "--max-children", str(max_children)]
    # Without names mutmut runs what it has no result for yet; with names it
    # runs exactly those mutants again.
    if survivors_only:
        names = [
            name
            for module in modules or all_modules()
            for name, s in (read_results(module) or {}).items()
            if s not in ("killed", "not checked", "skipped")
        ]
        if not names:
            print("no mutant left alive to run again")
            return 0.0
        command += names
    else:
        command += [f"rules.{m}.*" for m in modules or ()]
    print("$", " ".join(command[:6]), "..." if len(command) > 6 else "", flush=True)
    start = time.monotonic()
    subprocess.run(command, cwd=ROOT, check=False)
    return time.monotonic() - start


def rate(counts: Counter) -> str:
    counted = sum(counts[s] for s in COUNTED)
    return f"{100 * counts['killed'] / counted:6.1f}" if counted else "     -"


def print_table(modules: list[str], survivors: bool, diff: bool) -> None:
    header = f"{'module':<24}{'mutants':>8}{'killed':>8}{'survived':>9}{'no tests':>9}{'timeout':>8}{'suspic.':>8}{'unchecked':>10}{'kill %':>8}"
    print(header)
    print("-" * len(header))
    total: Counter = Counter()
    left: dict[str, list[tuple[str, str]]] = {}
    for module in modules:
        results = read_results(module)
        if results is None:
            print(f"{module:<24}  (no mutmut results: not mutated or not run)")
            continue
        counts = Counter(results.values())
        total += counts
        total["mutants"] += len(results)
        print(
            f"{module:<24}{len(results):>8}{counts['killed']:>8}{counts['survived']:>9}"
            f"{counts['no tests']:>9}{counts['timeout']:>8}{counts['suspicious']:>8}"
            f"{counts['not checked']:>10}{rate(counts):>8}"
        )
        left[module] = sorted(
            (name, s) for name, s in results.items() if s not in ("killed", "not checked", "skipped")
        )
    print("-" * len(header))
    print(
        f"{'TOTAL':<24}{total['mutants']:>8}{total['killed']:>8}{total['survived']:>9}"
        f"{total['no tests']:>9}{total['timeout']:>8}{total['suspicious']:>8}"
        f"{total['not checked']:>10}{rate(total):>8}"
    )
    print("kill % = killed / (killed + survived + no tests + timeout + suspicious); unchecked left out")
    if not survivors:
        return
    for module, names in left.items():
        if not names:
            continue
        print(f"\n{module}: {len(names)} not killed")
        for name, s in names:
            print(f"  {s:<10} {name}")
            if diff:
                shown = subprocess.run(
                    [mutmut(), "show", name],
                    cwd=ROOT,
                    capture_output=True,
                    text=True,
                    check=False,
                )
                print("    " + shown.stdout.replace("\n", "\n    ").rstrip())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--modules", help="comma-separated modules of src/rules (default: all)")
    parser.add_argument("--rulebook", action="store_true", help="the rulebook modules: " + " ".join(RULEBOOK))
    parser.add_argument("--no-run", action="store_true", help="only read the results in mutants/")
    parser.add_argument(
        "--rerun-survivors",
        action="store_true",
        help="run again only the mutants the last run left alive (after adding tests: killed ones stay killed)",
    )
    parser.add_argument("--max-children", type=int, default=2, help="mutmut workers (default 2)")
    parser.add_argument("--survivors", action="store_true", help="list the mutants not killed")
    parser.add_argument("--diff", action="store_true", help="with --survivors, print each one's diff")
    args = parser.parse_args()

    chosen: list[str] | None = None
    if args.modules:
        chosen = [m.strip().removesuffix(".py") for m in args.modules.split(",") if m.strip()]
    if args.rulebook:
        chosen = (chosen or []) + [m for m in RULEBOOK if m not in (chosen or [])]
    unknown = sorted(set(chosen or ()) - set(all_modules()))
    if unknown:
        parser.error(f"no such module in src/rules: {', '.join(unknown)}")

    if not args.no_run:
        elapsed = run_mutmut(chosen, args.max_children, args.rerun_survivors)
        print(f"\nmutmut run took {elapsed / 60:.1f} min with {args.max_children} workers\n")
    print_table(chosen or all_modules(), args.survivors, args.diff)


if __name__ == "__main__":
    main()
