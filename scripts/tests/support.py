"""What the scripts' tests share: the fixtures in data/, and running a script as the .sh does."""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
sys.path.insert(0, str(SCRIPTS))


def fake_build(folder):
    """A build folder whose tools/cudalab/cudalab is data/fake_cudalab."""
    tool = Path(folder) / "tools" / "cudalab"
    tool.mkdir(parents=True)
    (tool / "cudalab").symlink_to(DATA / "fake_cudalab")
    return str(folder)


def run_script(name, args, **environment):
    """scripts/<name>.sh ARGS with the environment's additions: (exit status, stdout, stderr)."""
    env = dict(os.environ, **environment)
    done = subprocess.run([str(SCRIPTS / f"{name}.sh")] + args, capture_output=True, text=True, env=env,
                          check=False)
    return done.returncode, done.stdout, done.stderr


class ScriptTest(unittest.TestCase):
    """A fresh fake build in a temporary folder for each test."""

    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        self.tmp = Path(self.folder.name)
        self.build = fake_build(self.tmp / "build")
        self.calls = self.tmp / "calls.txt"

    def tearDown(self):
        self.folder.cleanup()

    def run_on_fake_build(self, name, variable, stand_in, args, **environment):
        """scripts/<name>.sh on the fake build, its reports under <tmp>/out, with $variable naming
        data/<stand_in> unless the test names another program; every stand-in logs its command
        lines to self.calls."""
        environment.setdefault(variable, str(DATA / stand_in))
        return run_script(name, ["--build", self.build, "--out", str(self.tmp / "out")] + args,
                          FAKE_CALLS=str(self.calls), **environment)

    def assert_refused(self, name, args, status=2, **environment):
        """One line on stderr, nothing on stdout, and the exit status."""
        code, out, err = run_script(name, args, **environment)
        self.assertEqual(code, status, err)
        self.assertEqual(out, "")
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith(f"{name}.sh: "), err)
        self.assertLessEqual(len(err.rstrip("\n")), 120, err)
        return err
