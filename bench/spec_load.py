"""One-time costs of a fresh process: loading, checking and compiling protocol specs.

Usage:  python bench/spec_load.py [--repeat 5]

Each figure is CPU milliseconds (user+sys of the process, imports not counted) in a fresh
process, the best of ``--repeat``:

* the default protocol of the UNO kits (the rule set's ``virtual_protocol``) and its callees,
  loaded and checked by a first ``Library()``, then compiled for the compiled engine (what
  ``bench/uno_speed.py``'s whole card-level games pay before their first turn);
* every built-in protocol, loaded and checked by a first ``Library()``, then by a second one
  (every game, build and test makes its own: checked protocols are kept for the process, by
  file name and text, see ``reference_engine/spec.py``).

It records nothing: a check to run after changing how specs are loaded, not a figure of record.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = """
import json, time
import reference_engine.compiled, reference_engine.kinds.shedding, reference_engine.names
from reference_engine.compiled import program_for
from reference_engine.kinds.shedding import load_rules
from reference_engine.registry import Library

name = load_rules("uno").virtual_protocol
clock = time.process_time
out = {}
if WHAT == "default":
    t = clock()
    library = Library()
    proto = library.protocol(name)
    out["load"] = clock() - t
    t = clock()
    program_for(library, proto)
    out["compile"] = clock() - t
else:
    for key in ("first", "second"):
        t = clock()
        library = Library()
        for n in library.names():
            library.protocol(n)
        out[key] = clock() - t
print(json.dumps({"name": name, **out}))
"""


def fresh(what: str) -> dict[str, float | str]:
    """One measurement in a fresh process."""
    code = f"WHAT = {what!r}\n" + CHILD
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, float | str] = json.loads(done.stdout.splitlines()[-1])
    return result


def best(what: str, repeat: int) -> dict[str, float | str]:
    runs = [fresh(what) for _ in range(repeat)]
    return {k: (min(float(r[k]) for r in runs) if k != "name" else runs[0][k]) for k in runs[0]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="fresh processes per figure (the best counts)")
    args = parser.parse_args()
    default = best("default", max(1, args.repeat))
    every = best("every", max(1, args.repeat))
    ms = 1000.0
    print(f"spec loading, CPU ms in a fresh process (best of {args.repeat}; imports not counted):")
    print(f"  {default['name']} and its callees, first Library():  {float(default['load']) * ms:7.1f} ms")
    print(f"  {default['name']} compiled (program_for):          {float(default['compile']) * ms:7.1f} ms")
    print(f"  every built-in protocol, first Library():          {float(every['first']) * ms:7.1f} ms")
    print(f"  every built-in protocol, second Library():         {float(every['second']) * ms:7.1f} ms")


if __name__ == "__main__":
    main()
