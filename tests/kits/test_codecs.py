"""The kits' own MessagePack readers decode every type and size class the referee may send
(SPEC.md §2): every integer width both signs, str 8/16, array 16, map 16, nil, booleans, UTF-8.
Each reader is driven by a tiny harness that prints what it decoded as JSON."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import msgpack
import pytest

from arena.kits import KITS

VALUE = {
    "type": "act",
    "neg": [-1, -32, -33, -128, -129, -32768, -32769, -2**31, -2**31 - 1, -2**40],
    "pos": [0, 127, 128, 255, 256, 65535, 65536, 2**32 - 1, 2**32, 2**40],
    "str8": "x" * 40, "str16": "y" * 300, "utf8": "é€😀",
    "array16": list(range(20)), "map16": {f"k{i:02d}": i for i in range(20)},
    "nil": None, "yes": True, "no": False, "nested": [[], {}, [[1]], {"a": {"b": [None]}}],
}
BODY = msgpack.packb(VALUE, use_bin_type=True)

C_HARNESS = r"""
#include <stdio.h>
#include <stdlib.h>
#include "mp.h"
int main(void) {
    static unsigned char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf, stdin);
    mp_value *v = mp_decode(buf, n);
    if (!v) return 3;
    mp_print(stdout, v);
    mp_free(v);
    return 0;
}
"""

RUST_HARNESS = r"""
#[path = "msgpack.rs"]
#[allow(dead_code)]
mod msgpack;
use msgpack::Value;
use std::io::Read;
fn json(v: &Value) -> String {
    match v {
        Value::Nil => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => i.to_string(),
        Value::Float(f) => f.to_string(),
        Value::Str(s) => format!("\"{}\"", s),
        Value::Bin(b) => format!("{:?}", b),
        Value::Array(a) => format!("[{}]", a.iter().map(json).collect::<Vec<_>>().join(",")),
        Value::Map(m) => format!("{{{}}}", m.iter().map(|(k, v)| format!("\"{}\":{}", k, json(v)))
                                                .collect::<Vec<_>>().join(",")),
    }
}
fn main() {
    let mut data = Vec::new();
    std::io::stdin().read_to_end(&mut data).unwrap();
    print!("{}", json(&msgpack::decode(&data).unwrap()));
}
"""

JS_HARNESS = """
const fs = require("fs");
const { decode } = require(process.argv[2]);
process.stdout.write(JSON.stringify(decode(fs.readFileSync(0))));
"""


def _need(tool: str) -> str:
    path = shutil.which(tool, path="/usr/bin:/bin")
    if path is None:
        pytest.fail(f"{tool} is missing: run scripts/install-system-packages.sh")
    return path


def _decoded(argv: list[str], cwd: Path) -> object:
    out = subprocess.run(argv, input=BODY, capture_output=True, cwd=cwd, timeout=60, check=True)
    return json.loads(out.stdout.decode("utf-8"))


def test_c_reader(tmp_path):
    for name in ("mp.c", "mp.h"):
        shutil.copy(KITS / "c" / name, tmp_path / name)
    (tmp_path / "harness.c").write_text(C_HARNESS)
    subprocess.run([_need("cc"), "-O1", "-Wall", "-o", "harness", "harness.c", "mp.c"],
                   cwd=tmp_path, check=True, timeout=120)
    assert _decoded(["./harness"], tmp_path) == VALUE


def test_javascript_reader(tmp_path):
    (tmp_path / "harness.js").write_text(JS_HARNESS)
    assert _decoded([_need("node"), "harness.js", str(KITS / "javascript" / "msgpack.js")],
                    tmp_path) == VALUE


def test_javascript_writer_round_trip(tmp_path):
    script = (f"const m = require({json.dumps(str(KITS / 'javascript' / 'msgpack.js'))});"
              "const fs = require('fs');"
              "process.stdout.write(Buffer.from(m.encode(m.decode(fs.readFileSync(0)))));")
    out = subprocess.run([_need("node"), "-e", script], input=BODY, capture_output=True,
                         timeout=60, check=True)
    assert msgpack.unpackb(out.stdout, raw=False) == VALUE


@pytest.mark.slow
def test_rust_reader(tmp_path):
    shutil.copy(KITS / "rust" / "src" / "msgpack.rs", tmp_path / "msgpack.rs")
    (tmp_path / "harness.rs").write_text(RUST_HARNESS)
    subprocess.run([_need("rustc"), "--edition", "2021", "-O", "-o", "harness", "harness.rs"],
                   cwd=tmp_path, check=True, timeout=300, capture_output=True)
    assert _decoded(["./harness"], tmp_path) == VALUE
