#!/usr/bin/env python3
"""Self-test of bench/table.py (no GPU needed): a fake run-pipelines.sh log
and fake launch descriptions with hand-computed bounds and fractions.

    python3 bench/selftest/test_table.py      # prints OK, exit 0
"""
import contextlib
import importlib.util
import io
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, "..", "table.py")
spec = importlib.util.spec_from_file_location("table", SCRIPT)
table = importlib.util.module_from_spec(spec)
spec.loader.exec_module(table)

# Peaks chosen so that every bound is a round number:
#   f16 bandwidth bound 4000 / (2*2) = 1000, f64 4000 / (2*8) = 250 GStencil/s.
ROOFLINE = """\
== device: NVIDIA Fake, 999.99
device: NVIDIA Fake (sm_90, 100 SMs)
bandwidth: cuMemcpyDtoD 1.000 GiB x 10: 5.000 ms, 4000.0 GB/s (read + write bytes)
ROOFLINE unit=bandwidth gbs=4000.000
mma.sync m16n8k16 f16*f16+f32: 3.000 ms, 640.0 TFLOP/s (2*16*8*16 flop per instruction)
ROOFLINE unit=mma.f16 tflops=640.000
ROOFLINE unit=mma.sp.f16 tflops=1000.000
ROOFLINE unit=mma.f64 tflops=60.000
ROOFLINE unit=fma.f32 tflops=60.000
ROOFLINE unit=fma.f64 tflops=30.000
"""


def result(prefix, kernel, typ, gst, check="PASS", device="NVIDIA Fake"):
    return (f'{prefix}: RESULT kernel={kernel} device="{device}" '
            f"grid=10240x10240 type={typ} steps=1000 ms=1.0 "
            f"gstencil_s={gst} check={check} max_err=0 tol=1\n")


RESULTS = [
    # mma.sp: compute bound 1000e3 / 4096 = 244.140625 < 1000 -> 50 %.
    result("sptc box-2d9p", "box2d9p_sptc", "f16", 122.0703125),
    # mma.f16: compute bound 640e3 / 512 = 1250 > 1000 -> BW binds, 80 %.
    result("tc box-2d9p", "box2d9p_tc", "f16", 800),
    # fma.f32: 60e3 / 18 = 3333 > 1000 -> BW, 25 %.
    result("cuda-core box-2d9p", "box2d9p_cuda_core", "f16", 250),
    # The f64 variant, labelled with the plain name as run-pipelines.sh does:
    # fma.f64 30e3 / 18 = 1667 > 250 -> BW, 80 %.
    result("cuda-core box-2d9p", "box2d9p_cuda_core", "f64", 200),
    # Temporal blocking, 4 steps per launch: BW bound 4 * 1000 = 4000;
    # fma.f32 60e3 / 20 = 3000 < 4000 -> compute binds, 50 %.
    result("cuda-core-tb heat-2d", "heat2d_tb", "f16", 1500),
    # Temporal blocking, 2 steps per launch, f64: BW 2 * 250 = 500; mma.f64
    # 60e3 / 100 = 600 > 500 -> BW, 40 %.
    result("cuda-core-tb heat-3d", "heat3d_tb", "f64", 200),
    # cuDNN: bandwidth bound only. f16 100 / 1000, f64 50 / 250.
    result("cudnn-f16 box-2d9p", "cudnn:box2d9p_sptc", "float16", 100,
           check="SKIPPED"),
    result("cudnn-f64 box-2d9p", "cudnn:box2d9p_sptc", "float64", 50,
           check="SKIPPED"),
]

LAUNCHES = {
    "sptc/box-2d9p.launch": ("box2d9p_sptc", "f16",
                             "unit = mma.sp.f16\nunit_flops_per_point = 4096\n"),
    "tc/box-2d9p.launch": ("box2d9p_tc", "f16",
                           "unit = mma.f16\nunit_flops_per_point = 512\n"),
    "cuda-core/box-2d9p.launch": ("box2d9p_cuda_core", "f16",
                                  "unit = fma.f32\nunit_flops_per_point = 18\n"),
    "cuda-core/box-2d9p-f64.launch": (
        "box2d9p_cuda_core", "f64",
        "unit = fma.f64\nunit_flops_per_point = 18.0 # 9 FMAs\n"),
    "cuda-core-tb/heat-2d.launch": (
        "heat2d_tb", "f16",
        "unit = fma.f32\nunit_flops_per_point = 20\nsteps_per_launch = 4\n"),
    "cuda-core-tb/heat-3d.launch": (
        "heat3d_tb", "f64",
        "unit = mma.f64\nunit_flops_per_point = 100\nsteps_per_launch = 2\n"),
}


class TableTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = self.tmp.name
        self.art = os.path.join(self.dir, "art")
        for rel, (kernel, etype, extra) in LAUNCHES.items():
            self.write_launch(rel, kernel, etype, extra)

    def tearDown(self):
        self.tmp.cleanup()

    def write_launch(self, rel, kernel, etype, extra):
        path = os.path.join(self.art, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write("# stencil launch description v1\nversion = 1\n"
                    f"kernel = {kernel}\nptx = x.ptx\nrank = 2\n"
                    f"element_type = {etype}\n{extra}")

    def write_log(self, text):
        path = os.path.join(self.dir, "table.txt")
        with open(path, "w") as f:
            f.write(text)
        return path

    def rows(self, text):
        _, _, rows = table.compute_rows(self.write_log(text), self.art)
        return {(r["column"], r["stencil"], r["type"]): r for r in rows}

    def expect_error(self, text, needle):
        log = self.write_log(text)
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                contextlib.redirect_stdout(io.StringIO()):
            rc = table.main([log, self.art])
        self.assertEqual(rc, 1, err.getvalue())
        self.assertIn(needle, err.getvalue())

    def test_fractions(self):
        rows = self.rows(ROOFLINE + "".join(RESULTS))
        expect = {
            ("sptc", "box-2d9p", "f16"): (0.5, "mma.sp.f16", 1000, 244.140625),
            ("tc", "box-2d9p", "f16"): (0.8, "BW", 1000, 1250),
            ("cuda-core", "box-2d9p", "f16"): (0.25, "BW", 1000, 60e3 / 18),
            ("cuda-core", "box-2d9p", "f64"): (0.8, "BW", 250, 30e3 / 18),
            ("cuda-core-tb", "heat-2d", "f16"): (0.5, "fma.f32", 4000, 3000),
            ("cuda-core-tb", "heat-3d", "f64"): (0.4, "BW", 500, 600),
            ("cudnn", "box-2d9p", "f16"): (0.1, "BW", 1000, None),
            ("cudnn", "box-2d9p", "f64"): (0.2, "BW", 250, None),
        }
        self.assertEqual(set(rows), set(expect))
        for key, (frac, binds, bw, compute) in expect.items():
            r = rows[key]
            self.assertAlmostEqual(r["fraction"], frac, places=9, msg=key)
            self.assertEqual(r["binds"], binds, key)
            self.assertAlmostEqual(r["bw_bound"], bw, places=9, msg=key)
            if compute is None:
                self.assertIsNone(r["compute_bound"], key)
            else:
                self.assertAlmostEqual(r["compute_bound"], compute, places=6,
                                       msg=key)
        self.assertTrue(rows[("cuda-core", "box-2d9p", "f64")]["launch"]
                        .endswith("box-2d9p-f64.launch"))

    def test_markdown(self):
        out = table.make_table(self.write_log(ROOFLINE + "".join(RESULTS)),
                               self.art, details=True)
        lines = out.splitlines()
        self.assertIn("Device: NVIDIA Fake (sm_90, 100 SMs)", lines[0])
        self.assertIn("bandwidth 4000.0 GB/s", lines[0])
        self.assertIn("mma.sp.f16 1000.0, mma.f16 640.0, mma.f64 60.0, "
                      "fma.f32 60.0, fma.f64 30.0", lines[0])
        header = next(l for l in lines if l.startswith("| stencil |"))
        self.assertEqual(header, "| stencil | type | sptc | tc | cuda-core | "
                                 "cuda-core-tb | cudnn |")
        body = [l for l in lines if l.startswith("| ") and "|---" not in l]
        stencil_rows = [l for l in body[1:13]]
        self.assertEqual([l.split(" | ")[0][2:] + "/" + l.split(" | ")[1]
                          for l in stencil_rows],
                         [f"{s}/{t}" for s in table.STENCILS
                          for t in ("f16", "f64")])
        self.assertIn("| box-2d9p | f16 | 122.1 (50% of mma.sp.f16) | "
                      "800.0 (80% of BW) | 250.0 (25% of BW) | – | "
                      "100.0 (10% of BW) |", lines)
        self.assertIn("| box-2d9p | f64 | – | – | 200.0 (80% of BW) | – | "
                      "50.0 (20% of BW) |", lines)
        self.assertIn("| heat-2d | f16 | – | – | – | 1500.0 (50% of fma.f32) "
                      "| – |", lines)
        self.assertIn("| box-3d27p | f64 | – | – | – | – | – |", lines)
        # --details: one row per result.
        self.assertEqual(sum(1 for l in lines if l.startswith("| sptc |")
                             or l.startswith("| cuda-core")
                             or l.startswith("| tc |")
                             or l.startswith("| cudnn")), len(RESULTS))

    def test_cli(self):
        log = self.write_log(ROOFLINE + "".join(RESULTS))
        ok = subprocess.run([sys.executable, SCRIPT, log, self.art],
                            capture_output=True, text=True)
        self.assertEqual(ok.returncode, 0, ok.stderr)
        self.assertIn("| stencil | type |", ok.stdout)
        bad = self.write_log(ROOFLINE + result("sptc box-2d9p", "box2d9p_sptc",
                                                "f16", 1, check="FAIL"))
        fail = subprocess.run([sys.executable, SCRIPT, bad, self.art],
                              capture_output=True, text=True)
        self.assertNotEqual(fail.returncode, 0)
        self.assertIn("check=FAIL", fail.stderr)
        self.assertEqual(fail.stdout, "")

    def test_check_fail(self):
        self.expect_error(ROOFLINE + result("tc box-2d9p", "box2d9p_tc", "f16",
                                            1, check="FAIL"), "check=FAIL")

    def test_missing_unit_fields(self):
        self.write_launch("tc/box-2d9p.launch", "box2d9p_tc", "f16",
                          "unit = mma.f16\n")
        self.expect_error(ROOFLINE + result("tc box-2d9p", "box2d9p_tc", "f16",
                                            1), "no 'unit_flops_per_point")
        self.write_launch("tc/box-2d9p.launch", "box2d9p_tc", "f16", "")
        self.expect_error(ROOFLINE + result("tc box-2d9p", "box2d9p_tc", "f16",
                                            1), "no 'unit = ...'")

    def test_unit_not_measured(self):
        # e.g. an sm_90-only f64 shape in a log from an sm_80 device.
        self.write_launch("tc/heat-2d.launch", "heat2d_tc", "f64",
                          "unit = mma.f64.m16n8k16\nunit_flops_per_point = 8\n")
        self.expect_error(ROOFLINE + result("tc heat-2d", "heat2d_tc", "f64",
                                            1), "no 'ROOFLINE unit=mma.f64.m16n8k16'")

    def test_no_launch_of_that_type(self):
        self.expect_error(ROOFLINE + result("tc box-2d9p", "box2d9p_tc", "f64",
                                            1), "no launch description of type f64")

    def test_kernel_mismatch(self):
        self.expect_error(ROOFLINE + result("tc box-2d9p", "other_kernel", "f16",
                                            1), "describes box2d9p_tc")

    def test_no_bandwidth(self):
        text = "".join(l + "\n" for l in ROOFLINE.splitlines()
                       if "unit=bandwidth" not in l)
        self.expect_error(text + RESULTS[0], "unit=bandwidth")

    def test_other_device(self):
        self.expect_error(ROOFLINE + result("tc box-2d9p", "box2d9p_tc", "f16",
                                            1, device="NVIDIA Other"),
                          "never compared")

    def test_duplicate(self):
        self.expect_error(ROOFLINE + RESULTS[1] + RESULTS[1], "second result")

    def test_bad_steps_per_launch(self):
        self.write_launch("tc/box-2d9p.launch", "box2d9p_tc", "f16",
                          "unit = mma.f16\nunit_flops_per_point = 512\n"
                          "steps_per_launch = 0\n")
        self.expect_error(ROOFLINE + RESULTS[1], "steps_per_launch")


if __name__ == "__main__":
    unittest.main()
