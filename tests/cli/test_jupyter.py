#!/usr/bin/env python3
"""The Jupyter kernel: `matfuse --install-kernel`, then a notebook executed through nbclient.

Usage: test_jupyter.py MATFUSE
Checks: cells share one workspace, stdout text, MATLAB's error text, is_complete, and (when
the build renders figures) an inline PNG after a plotting cell.
"""
import json
import os
import subprocess
import sys
import tempfile
import unittest

import nbformat
from nbclient import NotebookClient

MATFUSE = None


class Kernel(unittest.TestCase):
    def test_notebook(self):
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, JUPYTER_DATA_DIR=d, JUPYTER_PATH=d,
                       JUPYTER_RUNTIME_DIR=os.path.join(d, "runtime"), HOME=d)
            os.environ.update(env)
            p = subprocess.run([MATFUSE, "--install-kernel"], capture_output=True, text=True,
                               env=env)
            self.assertEqual(p.returncode, 0, p.stderr)
            with open(os.path.join(d, "kernels", "matfuse", "kernel.json")) as f:
                spec = json.load(f)
            self.assertEqual(spec["argv"][1:], ["--jupyter-kernel", "-f", "{connection_file}"])
            self.assertEqual(spec["language"], "matlab")

            cells = ["x = 6;\ny = x * 7",
                     "for k = 1:3\n  fprintf('k=%d\\n', k);\nend\ndisp(y)",
                     "z = undefined_thing + 1",
                     "disp(x + 1)",
                     "error('my:id', 'Custom %d', 5)",
                     "%%profile\na = sum(ones(1, 10));\ndisp(a)"]
            plot_cell = "plot(1:10); title('t')"
            rc = subprocess.run([MATFUSE, "-e", "exit(exist('plot'))"]).returncode
            has_plot = rc in (2, 5)
            if has_plot:
                cells.append(plot_cell)
            nb = nbformat.v4.new_notebook()
            nb.cells = [nbformat.v4.new_code_cell(c) for c in cells]
            client = NotebookClient(nb, kernel_name="matfuse", timeout=60, allow_errors=True)
            client.execute()

            def text(cell):
                return "".join(o.get("text", "") for o in cell.outputs
                               if o.output_type == "stream" and o.name == "stdout")

            c = nb.cells
            self.assertEqual(text(c[0]), "y =\n\n    42\n\n")
            self.assertEqual(text(c[1]), "k=1\nk=2\nk=3\n    42\n")
            err = [o for o in c[2].outputs if o.output_type == "error"]
            self.assertEqual(len(err), 1)
            self.assertEqual(err[0].ename, "MATLAB:UndefinedFunction")
            self.assertIn("Unrecognized function or variable 'undefined_thing'.",
                          "\n".join(err[0].traceback))
            self.assertEqual(text(c[3]), "     7\n")
            err = [o for o in c[4].outputs if o.output_type == "error"]
            self.assertEqual((err[0].ename, err[0].evalue), ("my:id", "Custom 5"))
            self.assertIn("    10\n", text(c[5]))
            self.assertIn("--- matfuse profile: fusion groups ---", text(c[5]))
            self.assertNotIn("matfuse profile", text(c[3]))
            if has_plot:
                imgs = [o for o in c[6].outputs if o.output_type == "display_data"
                        and "image/png" in o.data]
                self.assertEqual(len(imgs), 1)
                import base64
                self.assertTrue(base64.b64decode(imgs[0].data["image/png"]).startswith(
                    b"\x89PNG"))

    def test_is_complete_and_completion(self):
        from jupyter_client.manager import start_new_kernel
        with tempfile.TemporaryDirectory() as d:
            env = dict(os.environ, JUPYTER_DATA_DIR=d, JUPYTER_PATH=d, HOME=d,
                       JUPYTER_RUNTIME_DIR=os.path.join(d, "runtime"))
            os.environ.update(env)
            subprocess.run([MATFUSE, "--install-kernel"], check=True, capture_output=True,
                           env=env)
            km, kc = start_new_kernel(kernel_name="matfuse")
            try:
                kc.is_complete("for k = 1:3")
                r = kc.get_shell_msg(timeout=30)
                self.assertEqual(r["content"]["status"], "incomplete")
                kc.is_complete("x = 1")
                r = kc.get_shell_msg(timeout=30)
                self.assertEqual(r["content"]["status"], "complete")
                kc.execute_interactive("myvariable_q = 3;", timeout=30)
                kc.complete("myvar", 5)
                r = kc.get_shell_msg(timeout=30)
                self.assertIn("myvariable_q", r["content"]["matches"])
            finally:
                kc.stop_channels()
                km.shutdown_kernel(now=True)


if __name__ == "__main__":
    MATFUSE = os.path.abspath(sys.argv.pop(1))
    unittest.main()
