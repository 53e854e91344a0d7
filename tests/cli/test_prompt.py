#!/usr/bin/env python3
"""The prompt, exit statuses, interrupts, whos/help/diary: matfuse run as a child process.

Usage: test_prompt.py MATFUSE [unittest args]
Interrupt tests run matfuse under a pseudo-terminal (the pty module) and send SIGINT mid-loop.
"""
import os
import pty
import select
import signal
import subprocess
import sys
import tempfile
import time
import unittest

MATFUSE = None


def run(args=(), stdin="", env=None, cwd=None, timeout=60):
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([MATFUSE, *args], input=stdin, capture_output=True, text=True,
                       env=e, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


class Pty:
    """matfuse on a pseudo-terminal: write keys, read until a text appears."""

    def __init__(self, args=(), env=None, cwd=None):
        e = dict(os.environ)
        e.update(env or {})
        e["TERM"] = "dumb"
        self.pid, self.fd = pty.fork()
        if self.pid == 0:
            if cwd:
                os.chdir(cwd)
            os.execve(MATFUSE, [MATFUSE, *args], e)
        self.out = b""

    def expect(self, text, timeout=20):
        want = text.encode()
        end = time.time() + timeout
        while want not in self.out:
            left = end - time.time()
            if left <= 0:
                raise AssertionError("timed out waiting for %r; got %r" % (text, self.out))
            r, _, _ = select.select([self.fd], [], [], left)
            if r:
                try:
                    chunk = os.read(self.fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    raise AssertionError("EOF waiting for %r; got %r" % (text, self.out))
                self.out += chunk
        i = self.out.index(want) + len(want)
        seen, self.out = self.out[:i], self.out[i:]
        return seen.decode(errors="replace")

    def send(self, text):
        os.write(self.fd, text.encode())

    def wait(self, timeout=20):
        end = time.time() + timeout
        while time.time() < end:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                return os.waitstatus_to_exitcode(status)
            try:
                r, _, _ = select.select([self.fd], [], [], 0.1)
                if r:
                    self.out += os.read(self.fd, 4096)
            except OSError:
                time.sleep(0.05)
        os.kill(self.pid, signal.SIGKILL)
        raise AssertionError("matfuse did not exit")


class Exit(unittest.TestCase):
    def test_exit_status_everywhere(self):
        self.assertEqual(run(["-e", "exit(3)"])[0], 3)
        self.assertEqual(run(["-e", "quit(0)"])[0], 0)
        self.assertEqual(run(["-e", "disp(1); exit; disp(2)"])[:2], (0, "     1\n"))
        self.assertEqual(run(stdin="x = 1;\nexit(4)\ndisp(5)\n")[0], 4)
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "f.m"), "w") as f:
                f.write("function f(n)\ntry\n  exit(n)\ncatch\n  disp('caught')\nend\nend\n")
            with open(os.path.join(d, "s.m"), "w") as f:
                f.write("disp('a')\nf(7)\ndisp('b')\n")
            rc, out, err = run([os.path.join(d, "s.m")])
            self.assertEqual((rc, out), (7, "a\n"))

    def test_exit_bad_status(self):
        rc, out, err = run(["-e", "exit(1.5)"])
        self.assertEqual(rc, 1)
        self.assertIn("Exit status must be an integer scalar.", err)


class Piped(unittest.TestCase):
    def test_multiline_blocks(self):
        src = ("for i = 1:3\n  disp(i)\nend\n"
               "if true\n  x = 5\nelse\n  x = 6\nend\n"
               "s = 0;\nwhile s < 2\n  s = s + 1;\nend\ndisp(s)\n"
               "switch x\n  case 5\n    disp('five')\n  otherwise\n    disp('other')\nend\n"
               "try\n  error('a:b', 'boom')\ncatch e\n  disp(e.message)\nend\n"
               "A = [1 2\n3 4]\n"
               "y = 1 + ...\n  2\n")
        rc, out, err = run(stdin=src)
        self.assertEqual(err, "")
        self.assertEqual(rc, 0)
        self.assertEqual(out, "     1\n     2\n     3\nx =\n\n     5\n\n     2\nfive\nboom\n"
                              "A =\n\n     1     2\n     3     4\n\ny =\n\n     3\n\n")

    def test_error_exits_nonzero(self):
        rc, out, err = run(stdin="disp(1)\nundefined_thing\ndisp(2)\n")
        self.assertEqual(rc, 1)
        self.assertEqual(out, "     1\n")
        self.assertIn("Unrecognized function or variable 'undefined_thing'.", err)

    def test_unfinished_block_at_eof(self):
        rc, out, err = run(stdin="for i = 1:2\n disp(i)\n")
        self.assertEqual(rc, 1)
        self.assertIn("missing its 'end'", err)

    def test_whos(self):
        rc, out, err = run(stdin="a = 1; bb = zeros(2,3); s = 'hello'; z = 1+2i; "
                                 "c = {1}; global g; g = int8(1);\nwhos\n")
        self.assertEqual(rc, 0, err)
        self.assertEqual(out,
                         "  Name      Size            Bytes  Class     Attributes\n\n"
                         "  a         1x1                 8  double\n"
                         "  bb        2x3                48  double\n"
                         "  c         1x1               112  cell\n"
                         "  g         1x1                 1  int8      global\n"
                         "  s         1x5                10  char\n"
                         "  z         1x1                16  double    complex\n\n")
        rc, out, err = run(["-e", "x = 1; w = whos; disp(w.name); disp(w.bytes)"])
        self.assertEqual(out, "x\n     8\n")

    def test_help(self):
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "addme.m"), "w") as f:
                f.write("function c = addme(a, b)\n%ADDME  Add two values together.\n"
                        "%   C = ADDME(A, B) adds A and B.\n\nc = a + b;\n")
            rc, out, err = run(stdin="help addme\n", cwd=d)
            self.assertEqual(out, "ADDME  Add two values together.\n"
                                  "   C = ADDME(A, B) adds A and B.\n\n")
            rc, out, err = run(stdin="help sin\ndoc nonexistent_fn\n", cwd=d)
            self.assertIn("Y = sin(X)", out)
            self.assertIn("nonexistent_fn not found.", out)

    def test_diary(self):
        with tempfile.TemporaryDirectory() as d:
            rc, out, err = run(stdin="diary log.txt\nx = 2\ndisp('hi')\ndiary off\ndisp('no')\n",
                               cwd=d)
            self.assertEqual(rc, 0, err)
            with open(os.path.join(d, "log.txt")) as f:
                log = f.read()
            self.assertEqual(log, ">> x = 2\nx =\n\n     2\n\n>> disp('hi')\nhi\n"
                                  ">> diary off\n")

    def test_console_commands(self):
        rc, out, err = run(stdin="more off\nclc\nbeep\nbeep off\ndisp(beep)\nmore on\n")
        self.assertEqual((rc, out, err), (0, "off\n", ""))


class Interrupt(unittest.TestCase):
    def test_ctrl_c_at_prompt_keeps_workspace(self):
        with tempfile.TemporaryDirectory() as d:
            p = Pty(env={"HOME": d})
            p.expect(">> ")
            p.send("x = 42; k = 0; while true, k = k + 1; end\r")
            time.sleep(1.0)
            os.kill(p.pid, signal.SIGINT)
            p.expect("Operation terminated by user")
            p.expect(">> ")
            p.send("disp(x), disp(k > 0)\r")
            p.expect("42")
            p.expect("1")
            p.expect(">> ")
            # Ctrl-C while typing discards the line
            p.send("disp(99)")
            time.sleep(0.3)
            os.kill(p.pid, signal.SIGINT)
            p.expect(">> ")
            # TAB completes a variable name and a struct field
            p.send("zqvariable = struct('field_one', 7);\r")
            p.expect(">> ")
            p.send("disp(zqvar\t")
            p.expect("zqvariable")
            p.send(".fie\t")
            p.expect("field_one")
            p.send(")\r")
            p.expect("7")
            p.expect(">> ")
            p.send("exit(5)\r")
            self.assertEqual(p.wait(), 5)
            # the history file was written
            with open(os.path.join(d, ".matfuse_history")) as f:
                self.assertIn("exit(5)", f.read())

    def test_ctrl_c_continuation_block(self):
        with tempfile.TemporaryDirectory() as d:
            p = Pty(env={"HOME": d})
            p.expect(">> ")
            p.send("for i = 1:2\r")
            p.send("disp(i)\r")
            p.send("end\r")
            p.expect("1")
            p.expect("2")
            p.expect(">> ")
            p.send("exit\r")
            self.assertEqual(p.wait(), 0)

    def test_sigint_batch(self):
        with tempfile.TemporaryDirectory() as d:
            script = os.path.join(d, "loop.m")
            with open(script, "w") as f:
                f.write("disp('started')\nk = 0;\nwhile true\n  k = k + 1;\nend\n")
            p = subprocess.Popen([MATFUSE, script], stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(1.5)  # (stdout is a pipe: block-buffered, flushed at the end)
            p.send_signal(signal.SIGINT)
            out, err = p.communicate(timeout=20)
            self.assertEqual((p.returncode, out), (130, "started\n"))
            self.assertRegex(err, r"Operation terminated by user during loop \(line [345]\)")

    def test_sigint_pause_and_try(self):
        # try/catch does not catch an interrupt; pause is interruptible
        p = subprocess.Popen([MATFUSE, "-e", "disp('go'); try, pause(60); catch, disp('no'); end"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1.5)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
        self.assertEqual((p.returncode, out), (130, "go\n"))
        self.assertIn("Operation terminated by user", err)


if __name__ == "__main__":
    MATFUSE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
