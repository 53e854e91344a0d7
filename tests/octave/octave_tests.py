#!/usr/bin/env python3
"""Run GNU Octave's own tests (the %! blocks of its installed function files) under matfuse.

For every builtin matfuse registers (`matfuse --list-builtins`) that has an installed Octave
function file `<name>.m`, the test blocks of that file are read at test time (nothing of Octave's
is copied into this repository), translated where the translation is mechanical, and run in one
matfuse process per function file:

  %!assert ... / %!test ...   pass when the code runs without an error
  %!error [<pattern>|id=ID] ...   pass when the code raises an error (the pattern is not
                              required to match: MATLAB's messages differ from Octave's)
  %!warning [<pattern>] ...   pass when the code issues a warning (lastwarn is set)
  %!shared / %!function       set up shared variables / helper functions (not counted)
  %!testif, %!demo, %!xtest   skipped (build features, demonstrations, Octave's known failures)

Translation: `!`/`!=` -> `~`/`~=`, `#` comments -> `%`, end keywords (endif, endfunction, ...)
-> `end`, `x += y` style operators, `**` -> `^`, double-quoted strings -> char arrays with their
escapes applied, printf -> fprintf, toupper/tolower -> upper/lower, unwind_protect -> try/catch with a rethrow, the 'local'
option of warning() dropped. Blocks that use Octave-only functions or syntax (chained indexing
`f(x)(2)`, do/until, ...) or functions outside matfuse's scope (graphics, Java) are
skipped and counted as skipped. Octave's assert(observed, expected, tol) comes from the test
prelude tests/octave/prelude/assert.m, which shadows matfuse's MATLAB assert in these runs only.

Each block runs as its own function file (shared variables passed in and out, as Octave does),
so a parse error fails one block only. Every block has a timeout: a block that hangs (or a crash
of matfuse) fails that block and the run resumes at the next one.

Known divergences (Octave and MATLAB disagree; matfuse follows MATLAB) are listed in
divergences.txt as `function: block-id: reason` (block-id `*` for a whole file) and are excluded
from the rate. Block ids are `<kind>-<hash>` of the block's text, printed by --failures.

Usage:
  octave_tests.py --matfuse PATH [--octave PATH] [--baseline FILE] [--write-baseline]
                  [--write-table FILE] [--failures] [--only NAME,...] [--jobs N]
Exit status: 0, or 1 when the pass rate is below the baseline's (or a run could not be made).
"""
import argparse
import concurrent.futures
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Octave functions and constants MATLAB does not have: a block using one is skipped.
OCTAVE_ONLY = set("""
columns rows numfields postpad prepad resize vec NA isna lookup nthargout print_usage fail
isargout merge ifelse sizemax puts fputs fdisp fflush stdout stderr OCTAVE_VERSION OCTAVE_HOME
octave_config_info compare_versions index rindex substr toascii do_string_escapes
undo_string_escapes ostrsplit struct_levels_to_print print_empty_dimensions output_precision
split_long_rows isdigit isalpha isupper islower isalnum ispunct iscntrl isgraph isprint isxdigit
isascii finite unsetenv putenv nproc unlink fskipl mkstemp P_tmpdir sizeof is_valid_file_id
freport dup2 popen pclose waitpid save_precision crash_dumps_octave_core
sighup_dumps_octave_core history_timestamp_format_string page_screen_output more
fixed_point_format print_struct_array_contents completion_matches cellslices strread textread
colloc quadcc octave_core_file_limit octave_core_file_name octave_core_file_options history_file
history_size isguirunning have_window_system get_home_directory isstudent argv program_name
program_invocation_name e I J bincoeff is_sq_string is_dq_string size_equal chdir canonicalize_file_name confirm_recursive_rmdir time
""".split())
# Constants Octave defines that MATLAB does not; skipped only when the block never assigns them.
OCTAVE_CONSTANTS = {"e", "I", "J", "NA"}
# MATLAB functions outside matfuse's scope (graphics, Java): skipped.
OUT_OF_SCOPE = set("""
figure plot axes line patch surface gca gcf close hold subplot image imagesc colormap print
javaObject javaMethod javaArray java_get java_set usejava gpuArray
""".split())

# Octave spellings of MATLAB functions with the same meaning: renamed mechanically.
OCTAVE_RENAMES = {"toupper": "upper", "tolower": "lower"}

KEYWORD_ENDS = {"endfunction", "endif", "endfor", "endwhile", "endswitch", "end_try_catch",
                "endparfor"}
BLOCK_KEYWORDS = {"assert", "fail", "error", "warning", "test", "shared", "function",
                  "endfunction", "testif", "xtest", "demo"}

ESCAPES = {"n": 10, "t": 9, "r": 13, "a": 7, "b": 8, "f": 12, "v": 11, "\\": 92, '"': 34,
           "'": 39, "0": 0}


class Untranslatable(Exception):
    pass


def dq_to_char(body):
    """The MATLAB char expression for the content of an Octave double-quoted string."""
    parts = []  # str pieces or int char codes
    i = 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            n = body[i + 1]
            if n in "01234567":
                m = re.match(r"[0-7]{1,3}", body[i + 1:])
                parts.append(int(m.group(0), 8))
                i += 1 + len(m.group(0))
                continue
            if n == "x":
                m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 2:])
                if m:
                    parts.append(int(m.group(0), 16))
                    i += 2 + len(m.group(0))
                    continue
            if n in ESCAPES:
                parts.append(ESCAPES[n])
                i += 2
                continue
            parts.append("\\")  # unknown escape: Octave keeps the backslash (with a warning)
            i += 1
            continue
        parts.append(c)
        i += 1
    pieces, text = [], ""
    for p in parts:
        if isinstance(p, int) and p not in (34, 39, 92):
            if text:
                pieces.append("'" + text.replace("'", "''") + "'")
                text = ""
            pieces.append("char(%d)" % p)
        else:
            text += chr(p) if isinstance(p, int) else p
    if text or not pieces:
        pieces.append("'" + text.replace("'", "''") + "'")
    return pieces[0] if len(pieces) == 1 else "[" + " ".join(pieces) + "]"


def translate_line(line, state):
    """Translates one line of Octave code to MATLAB. state carries bracket depth and the
    unwind_protect nesting across lines."""
    out = []
    i = 0
    n = len(line)
    prev = ""  # the last significant character emitted (for transpose detection)
    space_before = False
    stripped = line.strip()
    if stripped in ("#{", "%{"):
        return "%{"
    if stripped in ("#}", "%}"):
        return "%}"
    while i < n:
        c = line[i]
        if c in " \t":
            out.append(c)
            space_before = True
            i += 1
            continue
        if c in "#%":
            out.append("%" + line[i + 1:])
            break
        if c == ".":
            if line.startswith("...", i):
                out.append(line[i:])
                break
            if line.startswith(".**", i):
                out.append(".^")
                i += 3
                prev = "^"
                space_before = False
                continue
        if c == '"':
            j = i + 1
            body = ""
            while j < n:
                if line[j] == "\\" and j + 1 < n:
                    body += line[j:j + 2]
                    j += 2
                    continue
                if line[j] == '"':
                    if j + 1 < n and line[j + 1] == '"':
                        body += '\\"'
                        j += 2
                        continue
                    break
                body += line[j]
                j += 1
            if j >= n:
                raise Untranslatable("unterminated string")
            out.append(dq_to_char(body))
            i = j + 1
            prev = "'"
            space_before = False
            continue
        if c == "'":
            transpose = (prev and (prev.isalnum() or prev in "_)]}.'") and
                         not (space_before and state["depth"] > 0))
            if transpose:
                out.append("'")
                i += 1
                prev = "'"
                continue
            j = i + 1
            while j < n:
                if line[j] == "'":
                    if j + 1 < n and line[j + 1] == "'":
                        j += 2
                        continue
                    break
                j += 1
            if j >= n:
                raise Untranslatable("unterminated string")
            out.append(line[i:j + 1])
            i = j + 1
            prev = "'"
            space_before = False
            continue
        if c == "!":
            out.append("~=" if line.startswith("!=", i) else "~")
            i += 2 if line.startswith("!=", i) else 1
            prev = "~"
            space_before = False
            continue
        if c == "*" and line.startswith("**", i):
            out.append("^")
            i += 2
            prev = "^"
            space_before = False
            continue
        if c.isalpha() or c == "_":
            m = re.match(r"[A-Za-z_]\w*", line[i:])
            word = m.group(0)
            if prev == "." and not space_before:
                out.append(word)  # a field name
            elif word in KEYWORD_ENDS:
                out.append("end")
            elif word == "unwind_protect":
                out.append("mft_uwp = []; try")
            elif word == "unwind_protect_cleanup":
                out.append("catch mft_uwp; end")
            elif word == "end_unwind_protect":
                out.append("if ~isempty(mft_uwp), rethrow(mft_uwp); end")
            elif word in ("do", "until"):
                raise Untranslatable("do-until loop")
            elif word == "printf":
                out.append("fprintf")
            elif word in OCTAVE_RENAMES and not line[i + len(word):].lstrip().startswith("="):
                out.append(OCTAVE_RENAMES[word])
            else:
                out.append(word)
            i += len(word)
            prev = word[-1]
            space_before = False
            continue
        if c in "([{":
            if c in "({" and prev in ")]'" and not space_before and not (c == "(" and prev == "}"):
                raise Untranslatable("indexing of a call or literal result")
            state["stack"].append(c)
            if c in "[{":
                state["depth"] += 1
        elif c in ")]}":
            if state["stack"]:
                state["stack"].pop()
            if c in "]}":
                state["depth"] = max(0, state["depth"] - 1)
        out.append(c)
        prev = c
        space_before = False
        i += 1
    text = "".join(out)
    # Octave continues a parenthesised expression over a line end; MATLAB needs "...".
    if state["stack"] and state["stack"][-1] == "(" and not text.rstrip().endswith("..."):
        code_part = text.split("%", 1)[0] if "%" in text and "'" not in text else text
        text = code_part.rstrip() + " ..."
    # Statement-level increment operators.
    m = re.match(r"^(\s*)([A-Za-z_][\w.]*(?:\([^=]*?\))?)\s*([-+*/^])=(?!=)\s*(.*?)\s*(;?)\s*(%.*)?$",
                 text)
    if m:
        ind, lhs, op, rhs, semi = m.group(1), m.group(2), m.group(3), m.group(4), m.group(5)
        text = "%s%s = %s %s (%s)%s" % (ind, lhs, lhs, op, rhs, semi)
    m = re.match(r"^(\s*)(?:(\+\+|--)\s*([A-Za-z_]\w*)|([A-Za-z_]\w*)\s*(\+\+|--))\s*(;?)\s*$", text)
    if m:
        name = m.group(3) or m.group(4)
        op = (m.group(2) or m.group(5))[0]
        text = "%s%s = %s %s 1%s" % (m.group(1), name, name, op, m.group(6))
    if re.search(r"\w\s*(\+\+|--)\s*[;,)\]]", text) and "++" in text:
        raise Untranslatable("increment inside an expression")
    # warning (..., "local") is Octave-only: drop the option.
    text = re.sub(r"(warning\s*\(\s*'(?:on|off|error|query)'\s*,\s*'[^']*')\s*,\s*'local'\s*\)",
                  r"\1)", text)
    return text


def translate(code):
    state = {"depth": 0, "stack": []}
    return "\n".join(translate_line(l, state) for l in code.split("\n"))


def identifiers(code):
    """Names used in MATLAB code (outside strings and comments)."""
    names = set()
    for line in code.split("\n"):
        line = re.sub(r"'[^'\n]*'", "''", line)  # approximate: removes strings
        line = line.split("%", 1)[0]
        for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)", line):
            names.add(m.group(1))
    return names


def assigned(code):
    names = set()
    for m in re.finditer(r"(?<![\w.])([A-Za-z_]\w*)\s*(?:\([^=\n]*\))?\s*=(?!=)", code):
        names.add(m.group(1))
    for m in re.finditer(r"\[([^\]=\n]*)\]\s*=(?!=)", code):
        names.update(re.findall(r"[A-Za-z_]\w*", m.group(1)))
    for m in re.finditer(r"\b(?:for|catch|global|persistent)\s+([A-Za-z_]\w*)", code):
        names.add(m.group(1))
    return names


class Block:
    def __init__(self, kind, line, text):
        self.kind = kind        # assert error warning test shared function testif xtest demo fail
        self.line = line        # 1-based line of the block in the Octave file
        self.raw = text         # the text after the keyword (all lines)
        self.code = ""          # translated MATLAB code (for runnable blocks)
        self.skip = ""          # reason when skipped
        self.shared = []        # shared variable names (shared blocks)
        self.fname = ""         # function name (function blocks)
        self.result = ""        # pass fail skip divergence
        self.message = ""


def parse_blocks(path):
    blocks = []
    cur = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.startswith("%!"):
                continue
            body = line[2:].rstrip("\n")
            m = re.match(r"([A-Za-z_]\w*)(.*)$", body)
            if m and m.group(1) in BLOCK_KEYWORDS:
                cur = Block(m.group(1), lineno, m.group(2))
                blocks.append(cur)
            elif cur is not None:
                cur.raw += "\n" + body
    for b in blocks:
        norm = re.sub(r"\s+", " ", b.kind + " " + b.raw).strip()
        b.id = "%s-%s" % (b.kind, hashlib.sha1(norm.encode()).hexdigest()[:8])
    return blocks


def prepare(block, builtin_names):
    """Classifies a block and translates its code (sets skip or code)."""
    k = block.kind
    text = block.raw
    if k == "demo":
        block.skip = "demo"
        return
    if k == "testif":
        block.skip = "testif (build or runtime feature of Octave)"
        return
    if k == "xtest":
        block.skip = "xtest (Octave's own known failure)"
        return
    if k == "fail":
        block.skip = "Octave-only: fail()"
        return
    if k == "endfunction":
        return
    if k in ("assert", "test", "xtest"):
        text = re.sub(r"^\s*<[^>]*>", "", text)
    if k in ("error", "warning"):
        text = re.sub(r"^\s*<.*?>(?=\s|$)", "", text, count=1)
        text = re.sub(r"^\s*id=\S+", "", text, count=1)
    if k == "assert":
        text = "assert " + text.strip()
    if k == "shared":
        first, _, rest = text.partition("\n")
        block.shared = re.findall(r"[A-Za-z_]\w*", first.split("#")[0].split("%")[0])
        text = rest
    if k == "function":
        m = re.match(r"\s*(?:\[[^\]]*\]\s*=|[A-Za-z_]\w*\s*=)?\s*([A-Za-z_]\w*)", text)
        if not m:
            block.skip = "unparsed function block"
            return
        block.fname = m.group(1)
        text = "function " + text.strip("\n") + "\nend"
    try:
        block.code = translate(text)
    except Untranslatable as e:
        block.skip = "Octave-only syntax: %s" % e
        return
    names = identifiers(block.code)
    octave_only = sorted(n for n in names if (n in OCTAVE_ONLY and n not in OCTAVE_CONSTANTS)
                         or n.startswith("__"))
    if octave_only:
        block.skip = "Octave-only: %s" % ", ".join(octave_only)
        return
    scope = sorted(names & OUT_OF_SCOPE)
    if scope:
        block.skip = "out of scope: %s" % ", ".join(scope)
        return
    block.used = names


def finish_prepare(blocks):
    """Second pass: constants like e / I used without being assigned anywhere in the file."""
    defined = set()
    for b in blocks:
        if b.kind == "function" and not b.skip:
            defined.add(b.fname)
    for b in blocks:
        if b.skip or b.kind == "endfunction" or not b.code:
            continue
        scope_names = assigned(b.code)
        for s in blocks:
            if s.kind == "shared" and s.line <= b.line:
                scope_names.update(s.shared)
        consts = sorted(n for n in getattr(b, "used", set()) & OCTAVE_CONSTANTS
                        if n not in scope_names)
        if consts:
            b.skip = "Octave-only constant: %s" % ", ".join(consts)


def read_divergences(path):
    div = {}
    if not os.path.exists(path):
        return div
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split(":", 2)]
            if len(parts) == 3:
                div[(parts[0], parts[1])] = parts[2]
    return div


DRIVER_LOG = """function mft_log(f, s)
fid = fopen(f, 'a');
fprintf(fid, '%s\\n', s);
fclose(fid);
end
"""


def block_call(b, k, shared):
    outs = ", ".join(shared)
    call = "mft_b%d(%s)" % (k, outs)
    if shared:
        call = "[%s] = %s" % (outs, call)
    return call


def write_driver(tmp, blocks, order, start, resfile):
    """The driver script for runnable blocks order[start:], preceded by the latest shared block
    before them (so that a restart after a timeout sees the same shared variables)."""
    lines = ["mft_res = '%s';" % resfile]
    idxs = list(order[start:])
    if start > 0:
        prior = [k for k in order[:start] if blocks[k].kind == "shared"]
        if prior:
            idxs.insert(0, prior[-1])
    shared = []
    for k in idxs:
        b = blocks[k]
        if b.kind == "shared":
            shared = b.shared
            if shared:
                lines.append("%s" % "; ".join("%s = []" % s for s in shared) + ";")
        call = block_call(b, k, shared)
        lines.append("mft_log(mft_res, 'S %d');" % k)
        if b.kind == "warning":
            lines.append("lastwarn('');")
        lines.append("try")
        lines.append("  %s;" % call)
        if b.kind == "warning":
            lines.append("  [mft_w, mft_wid] = lastwarn();")
            lines.append("  if isempty(mft_w), mft_log(mft_res, 'N %d'); "
                         "else, mft_log(mft_res, 'W %d'); end" % (k, k))
        else:
            lines.append("  mft_log(mft_res, 'N %d');" % k)
        lines.append("catch mft_e")
        lines.append("  mft_log(mft_res, sprintf('E %d %%s | %%s', mft_e.identifier, "
                     "strrep(strrep(mft_e.message, char(10), ' '), char(13), ' ')));" % k)
        lines.append("end")
    with open(os.path.join(tmp, "mft_main.m"), "w") as f:
        f.write("\n".join(lines) + "\n")


def run_file(name, path, args, builtin_names, divergences):
    blocks = parse_blocks(path)
    for b in blocks:
        prepare(b, builtin_names)
    finish_prepare(blocks)
    whole = divergences.get((name, "*"))
    counted = ("assert", "error", "warning", "test")
    order = []
    for k, b in enumerate(blocks):
        if b.kind in ("function", "endfunction"):
            continue
        if b.kind in counted or b.kind in ("demo", "testif", "xtest", "fail"):
            if whole is not None:
                b.result, b.message = "divergence", whole
                continue
            if (name, b.id) in divergences:
                b.result, b.message = "divergence", divergences[(name, b.id)]
                continue
            if b.skip:
                b.result, b.message = "skip", b.skip
                continue
        if b.kind == "shared" and whole is not None:
            continue
        if b.kind == "shared" and b.skip:
            # The tests that need these variables fail or skip on their own.
            b.code = "% " + b.skip
            b.skip = ""
        order.append(k)
    tmp = tempfile.mkdtemp(prefix="mft_%s_" % re.sub(r"\W", "_", name))
    try:
        shutil.copy(os.path.join(HERE, "prelude", "assert.m"), tmp)
        with open(os.path.join(tmp, "mft_log.m"), "w") as f:
            f.write(DRIVER_LOG)
        for b in blocks:
            if b.kind == "function" and not b.skip:
                with open(os.path.join(tmp, b.fname + ".m"), "w") as f:
                    f.write(b.code + "\n")
        shared = []
        for k in order:
            b = blocks[k]
            if b.kind == "shared":
                shared = b.shared
            outs = ", ".join(shared)
            head = "function [%s] = mft_b%d(%s)" % (outs, k, outs) if shared else \
                "function mft_b%d()" % k
            with open(os.path.join(tmp, "mft_b%d.m" % k), "w") as f:
                f.write(head + "\n" + b.code + "\nend\n")
        resfile = os.path.join(tmp, "results.txt")
        raw = {}
        start = 0
        while start < len(order):
            write_driver(tmp, blocks, order, start, resfile)
            open(resfile, "w").close()
            errlog = open(os.path.join(tmp, "stderr.txt"), "w")
            p = subprocess.Popen([args.matfuse, os.path.join(tmp, "mft_main.m")], cwd=tmp,
                                 stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                 stderr=errlog)
            last_len, last_change = 0, time.monotonic()
            timed_out = False
            while p.poll() is None:
                time.sleep(0.02)
                size = os.path.getsize(resfile)
                if size != last_len:
                    last_len, last_change = size, time.monotonic()
                elif time.monotonic() - last_change > args.block_timeout:
                    p.kill()
                    p.wait()
                    timed_out = True
            errlog.close()
            current = None
            with open(resfile, encoding="utf-8", errors="replace") as f:
                for line in f:
                    tag, _, rest = line.rstrip("\n").partition(" ")
                    k_str, _, msg = rest.partition(" ")
                    if not k_str.isdigit():
                        continue
                    k = int(k_str)
                    if tag == "S":
                        current = k
                    else:
                        raw[k] = (tag, msg)
                        current = None
            if current is None:
                if p.returncode not in (0,) and not raw:
                    with open(os.path.join(tmp, "stderr.txt"), errors="replace") as f:
                        err = f.read().strip().replace("\n", " ")[:200]
                    for k in order[start:]:
                        raw[k] = ("E", "driver | " + err)
                break
            with open(os.path.join(tmp, "stderr.txt"), errors="replace") as f:
                err = f.read().strip().replace("\n", " ")[-200:]
            raw[current] = ("T", ("timeout after %gs" % args.block_timeout) if timed_out
                            else "matfuse exited (rc %s): %s" % (p.returncode, err))
            start = order.index(current) + 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for k in order:
        b = blocks[k]
        if b.kind not in counted:
            continue
        tag, msg = raw.get(k, ("T", "no result"))
        own_file = "mft_b%d.m" % k
        if b.kind == "error":
            bad = tag == "E" and ((msg.startswith("MATLAB:syntax") and own_file in msg) or
                                  "Unrecognized function or variable" in msg or
                                  msg.startswith("driver"))
            if tag == "E" and not bad:
                b.result = "pass"
            else:
                b.result = "fail"
                b.message = "no error raised" if tag == "N" else msg
        elif b.kind == "warning":
            b.result = "pass" if tag == "W" else "fail"
            b.message = {"N": "no warning issued"}.get(tag, msg) if tag != "W" else ""
        else:
            b.result = "pass" if tag == "N" else "fail"
            b.message = msg if tag != "N" else ""
    return [b for b in blocks if b.result]


def octave_m_dir(octave):
    code = 'disp(fullfile(OCTAVE_HOME, "share", "octave", version, "m"))'
    try:
        p = subprocess.run([octave, "--no-gui", "-q", "--no-window-system", "--eval", code],
                           capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return None
    for line in p.stdout.splitlines():
        if os.path.isdir(line.strip()):
            return line.strip()
    return None


def find_sources(mdir, names):
    index = {}
    for root, dirs, files in os.walk(mdir):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("@", "+")) and d != "private")
        for fn in files:
            if fn.endswith(".m"):
                index.setdefault(fn[:-2], os.path.join(root, fn))
    return {n: index[n] for n in names if n in index}


def read_baseline(path):
    rate = None
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                m = re.match(r"pass_rate:\s*([\d.]+)", line)
                if m:
                    rate = float(m.group(1))
    return rate


def rate_of(p, f):
    return 100.0 * p / (p + f) if p + f else 100.0


def table(rows, totals, octave_version, mdir):
    p, f, s, d = totals
    out = ["# GNU Octave's own tests under matfuse", "",
           "Generated by `tests/octave/octave_tests.py --write-table` from the test blocks of "
           "GNU Octave %s's installed function files (`%s`), for every matfuse builtin that "
           "has one. Rate = pass / (pass + fail); skipped blocks (Octave-only functions or "
           "syntax, build-feature tests, demos) and known divergences "
           "(`tests/octave/divergences.txt`) are not counted." % (octave_version, mdir), "",
           "**Total: %d pass, %d fail, %d skipped, %d divergences: pass rate %.1f%%**"
           % (p, f, s, d, rate_of(p, f)), "",
           "| function | pass | fail | skipped | divergences | rate |",
           "|---|---:|---:|---:|---:|---:|"]
    for name, (a, b, c, e) in rows:
        out.append("| %s | %d | %d | %d | %d | %s |" % (
            name, a, b, c, e, ("%.0f%%" % rate_of(a, b)) if a + b else "-"))
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--matfuse", required=True)
    ap.add_argument("--octave", default=shutil.which("octave-cli") or shutil.which("octave"))
    ap.add_argument("--m-dir", help="Octave's installed m/ folder (default: asked of octave)")
    ap.add_argument("--baseline", default=os.path.join(HERE, "baseline.txt"))
    ap.add_argument("--divergences", default=os.path.join(HERE, "divergences.txt"))
    ap.add_argument("--write-baseline", action="store_true")
    ap.add_argument("--write-table", metavar="FILE")
    ap.add_argument("--failures", action="store_true", help="list every failing block")
    ap.add_argument("--only", help="comma-separated function names")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--block-timeout", type=float, default=10.0)
    args = ap.parse_args()
    args.matfuse = os.path.abspath(args.matfuse)

    mdir = args.m_dir or (octave_m_dir(args.octave) if args.octave else None)
    if not mdir or not os.path.isdir(mdir):
        print("octave_tests: GNU Octave's m/ folder not found (is octave installed?)")
        return 1
    version = os.path.basename(os.path.dirname(mdir))
    p = subprocess.run([args.matfuse, "--list-builtins"], capture_output=True, text=True)
    names = [n for n in p.stdout.split() if n]
    if p.returncode != 0 or not names:
        print("octave_tests: `matfuse --list-builtins` failed")
        return 1
    if args.only:
        names = [n for n in names if n in args.only.split(",")]
    sources = find_sources(mdir, names)
    divergences = read_divergences(args.divergences)
    t0 = time.monotonic()
    results = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        futs = {ex.submit(run_file, n, path, args, set(names), divergences): n
                for n, path in sources.items()}
        for fut in concurrent.futures.as_completed(futs):
            results[futs[fut]] = fut.result()
    rows = []
    totals = [0, 0, 0, 0]
    for name in sorted(results):
        c = [sum(1 for b in results[name] if b.result == r)
             for r in ("pass", "fail", "skip", "divergence")]
        rows.append((name, c))
        totals = [x + y for x, y in zip(totals, c)]
    pa, fa, sk, dv = totals
    rate = rate_of(pa, fa)
    for name, (a, b, c, e) in sorted(rows, key=lambda r: -r[1][1]):
        if b:
            print("%-14s %4d pass %4d fail %4d skip %3d div" % (name, a, b, c, e))
    if args.failures:
        for name in sorted(results):
            for b in results[name]:
                if b.result == "fail":
                    print("FAIL %s: %s: line %d: %s" % (name, b.id, b.line, b.message[:300]))
    print("octave_tests: %d functions, %d pass, %d fail, %d skipped, %d divergences; "
          "pass rate %.1f%% (%.0fs)" % (len(rows), pa, fa, sk, dv, rate, time.monotonic() - t0))
    if args.write_table:
        with open(args.write_table, "w") as f:
            f.write(table(rows, totals, version, mdir))
    if args.write_baseline:
        with open(args.baseline, "w") as f:
            f.write("# Committed pass rate of GNU Octave's own tests under matfuse "
                    "(tests/octave/octave_tests.py --write-baseline).\n")
            f.write("# The ctest octave.own_tests fails when the rate drops below pass_rate.\n")
            f.write("octave: %s\npass_rate: %.1f\n" % (version, rate))
            f.write("# function pass fail skipped divergences\n")
            for name, c in rows:
                f.write("%s %d %d %d %d\n" % ((name,) + tuple(c)))
        return 0
    base = read_baseline(args.baseline)
    if base is not None and round(rate, 1) < base:
        print("octave_tests: pass rate %.1f%% is below the baseline %.1f%%" % (rate, base))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
