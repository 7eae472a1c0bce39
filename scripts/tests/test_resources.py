"""The GPU tests' resources: the CTest resource spec written from the cards CUDA sees, and
cmake/on_allocated_gpu.sh, which gives a test the card CTest allocated it."""
import os
import subprocess
import unittest

from support import SCRIPTS
from cudalab_scripts import resources

SMI = "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0a)\nGPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-1b)\n"
LAUNCHER = SCRIPTS.parent / "cmake" / "on_allocated_gpu.sh"


class spec(unittest.TestCase):
    def test_every_card_nvidia_smi_lists_or_those_cuda_visible_devices_leaves(self):
        self.assertEqual(resources.visible_cards(SMI, None), 2)
        self.assertEqual(resources.visible_cards(SMI, "1"), 1)
        self.assertEqual(resources.visible_cards(SMI, "GPU-1b,GPU-0a"), 2)
        self.assertEqual(resources.visible_cards(SMI, ""), 0)
        self.assertEqual(resources.visible_cards("", None), 0)
        self.assertEqual(resources.visible_cards("No devices were found\n", "0"), 0)

    def test_one_slot_a_card_so_a_gpu_test_has_its_card_alone(self):
        self.assertEqual(resources.spec(2), {"version": {"major": 1, "minor": 0},
                                             "local": [{"gpus": [{"id": "0", "slots": 1},
                                                                 {"id": "1", "slots": 1}]}]})


class launcher(unittest.TestCase):
    def visible(self, **environment):
        env = {k: v for k, v in os.environ.items() if k not in ("CUDA_VISIBLE_DEVICES", "CTEST_RESOURCE_GROUP_0_GPUS")}
        env.update(environment)
        return subprocess.run([str(LAUNCHER), "sh", "-c", 'echo "${CUDA_VISIBLE_DEVICES-unset}"'],
                              capture_output=True, text=True, env=env, check=True).stdout.strip()

    def test_the_allocated_card_by_its_position(self):
        self.assertEqual(self.visible(CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1"), "1")
        self.assertEqual(self.visible(CTEST_RESOURCE_GROUP_0_GPUS="id:1,slots:1", CUDA_VISIBLE_DEVICES="3,5"), "5")
        self.assertEqual(self.visible(CTEST_RESOURCE_GROUP_0_GPUS="id:0,slots:1", CUDA_VISIBLE_DEVICES="GPU-1b"),
                         "GPU-1b")

    def test_without_an_allocation_the_environment_is_untouched(self):
        self.assertEqual(self.visible(), "unset")
        self.assertEqual(self.visible(CUDA_VISIBLE_DEVICES="2"), "2")

    def test_the_exit_status_is_the_tests(self):
        self.assertEqual(subprocess.run([str(LAUNCHER), "sh", "-c", "exit 77"], check=False).returncode, 77)


if __name__ == "__main__":
    unittest.main()
