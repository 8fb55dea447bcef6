"""The distribution installs as a wheel into a fresh virtual environment: `xsys --help`
works, `import xsys.core` works, and no top-level `core`/`plugins` package lands in
site-packages."""

import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_wheel_in_fresh_venv(tmp_path):
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels), str(ROOT)],
                   check=True, capture_output=True)
    (wheel,) = wheels.glob("xsys-*.whl")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", str(wheel)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    r = subprocess.run([str(env_dir / "bin" / "xsys"), "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "systems" in r.stdout, r.stderr
    code = ("import xsys.core, xsys.conversions, xsys.plugins, importlib.util, sysconfig, pathlib;"
            "sp = pathlib.Path(sysconfig.get_paths()['purelib']);"
            "assert not (sp / 'core').exists() and not (sp / 'plugins').exists() and not (sp / 'conversions').exists();"
            "assert importlib.util.find_spec('core') is None;"
            "from importlib import resources;"
            "assert resources.files('xsys.plugins.gurps').joinpath('tables.toml').is_file();"
            "from xsys.core.registry import default_registry; from xsys.core import units;"
            "default_registry().keys(); assert units.parse('3 m / pl_tura', units.Speed) == 1.0;"
            "assert resources.files('xsys.plugins.catalog').joinpath('weapons.toml').is_file();"
            "print('ok')")
    r = subprocess.run([str(py), "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.strip() == "ok", r.stderr
    r = subprocess.run([str(env_dir / "bin" / "xsys"), "catalog", "material"], capture_output=True, text=True,
                       cwd=tmp_path)
    assert r.returncode == 0 and "concrete" in r.stdout, r.stderr


def test_editable_install_imports_from_the_checkout():
    import xsys.core

    assert Path(xsys.core.__file__).resolve().parent == ROOT / "core"
