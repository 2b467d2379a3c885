"""A pytest plugin: `pytest --game GAME --submission PATH` runs a game's cases against a
submission, one test item per case, so pytest's selection (-k, -x, --lf), its reports (-v,
--junitxml) and pytest-xdist (-n) work on grading as on any test suite.

It is loaded in every pytest run once the project is installed (entry point `pytest11`), so
without --game it does nothing and imports nothing of the harness (harness.plugin.session is
imported only when a game is asked for).
"""
from pathlib import Path

import pytest

OPTIONS = ("submission", "public_only", "no_sandbox")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("game-harness", "running a game's cases against a submission (game-harness)")
    group.addoption("--game", metavar="GAME",
                    help="collect the cases of GAME (or GAME:MILESTONE) as test items; needs --submission")
    group.addoption("--submission", metavar="PATH",
                    help="the submission the cases run against: a folder, an archive, a source file or a ready program")
    group.addoption("--public-only", action="store_true",
                    help="only the public cases (a student's self-check; runs without bubblewrap if it is missing)")
    group.addoption("--no-sandbox", action="store_true",
                    help="run the submission unconfined when bubblewrap is missing (only for programs you trust)")


_RUN = pytest.StashKey["GameRun"]()
_SHARED = "game_harness_shared"  # the key of the workers' shared folder in xdist's workerinput


class _Controller:
    """Under pytest-xdist, the controller makes one private folder the workers share, so the
    submission is graded once (by the first worker to need it) and removed when pytest ends."""

    def __init__(self, config: pytest.Config):
        self.config = config
        self.folder = None

    def pytest_configure_node(self, node) -> None:
        if self.folder is None:
            from harness.plugin import session as pytest_session
            holder = pytest_session.shared_folder()
            self.folder = holder.__enter__()
            self.config.add_cleanup(lambda: holder.__exit__(None, None, None))
        node.workerinput[_SHARED] = str(self.folder)


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    game = config.getoption("game")
    if game is None:
        given = [f"--{name.replace('_', '-')}" for name in OPTIONS if config.getoption(name)]
        if given:
            raise pytest.UsageError(f"{given[0]} needs --game GAME (the game whose cases run, a folder under specs/)")
        return
    if config.getoption("submission") is None:
        raise pytest.UsageError(f"--game {game} needs --submission PATH (a submission folder, archive or source file)")
    from harness.plugin import session as pytest_session
    from harness.errors import InputError
    try:
        run = pytest_session.open_run(game, config.getoption("submission"), config.getoption("public_only"),
                                      config.getoption("no_sandbox"))
    except InputError as problem:
        raise pytest.UsageError(str(problem)) from None
    config.stash[_RUN] = run
    shared = getattr(config, "workerinput", {}).get(_SHARED)
    if shared:  # a pytest-xdist worker: one worker grades, the others read its result
        run.shared = Path(shared)
    elif config.pluginmanager.hasplugin("xdist"):
        config.pluginmanager.register(_Controller(config), "game-harness-xdist")
    explicit = config.args_source == pytest.Config.ArgsSource.ARGS
    config.args = pytest_session.collection_args(run.folder, config.args, explicit, config.invocation_params.dir)


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(_RUN, None)
    if run is None:
        return None
    from harness.plugin import session as pytest_session
    return pytest_session.header(run)


def pytest_collect_file(file_path, parent: pytest.Collector):
    run = parent.config.stash.get(_RUN, None)
    if run is None or file_path.resolve() not in run.cases:
        return None
    inside = file_path.is_relative_to(parent.config.rootpath)
    return CaseFile.from_parent(parent, path=file_path, nodeid=None if inside else run.node_path(file_path))


def pytest_collection_finish(session: pytest.Session) -> None:
    """The cases of the items pytest kept are the ones the submission is graded on."""
    run = session.config.stash.get(_RUN, None)
    if run is not None:
        run.select([item.case for item in session.items if isinstance(item, CaseItem) and item.case is not None],
                   any(isinstance(item, LawItem) for item in session.items))


class CaseFile(pytest.File):
    """One case file: one item, named after the case (and, in the file of the case the spec's
    law of random starts names, the check of that law, as `harness grade` reports it)."""

    def collect(self):
        run = self.config.stash[_RUN]
        case = run.cases[self.path.resolve()]
        yield CaseItem.from_parent(self, name=case.name, case=case)
        if case.name == run.law_case:
            yield LawItem.from_parent(self, name=_law_check_name(), rubric=run.spec.random_start.law.rubric)


def _law_check_name() -> str:
    from harness.starts.law import CHECK_NAME
    return CHECK_NAME


class CaseFailed(Exception):
    """The case did not pass: its text is the harness's explanation."""


class HarnessFailed(Exception):
    """The harness failed on the case (not the program's fault): reported as an error."""


class CaseItem(pytest.Item):
    """A case: its verdict taken while the item is set up (the first item's set-up grades the
    submission, so a harness failure is pytest's error, not a failure of the program),
    reported when it is called."""

    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.verdict = None
        # -k RUBRIC selects an item's cases; -k hidden / -k public their visibility
        self.extra_keyword_matches.update({case.rubric, str(case.visibility)})
        self.user_properties += [("rubric", case.rubric), ("points", case.points), ("visibility", str(case.visibility))]

    def setup(self) -> None:
        from harness.results import HARNESS_ERROR  # the harness is imported only once a game is asked for
        self.verdict = self.config.stash[_RUN].verdict(self.name)
        if self.verdict.status == HARNESS_ERROR:
            raise HarnessFailed(self.verdict.text)

    def runtest(self) -> None:
        from harness.results import PASSED
        if self.verdict.status != PASSED:
            raise CaseFailed(self.verdict.text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (CaseFailed, HarnessFailed)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.case.name} [{self.case.rubric}]"


class LawItem(CaseItem):
    """The check that the starts a program drew follow the spec's law (`harness grade`'s
    start-distribution line), judged on the same grading as the cases."""

    def __init__(self, *, rubric: str | None, **kwargs):
        pytest.Item.__init__(self, **kwargs)
        self.case = None
        self.verdict = None
        self.extra_keyword_matches.update({rubric or "", "public"})
        self.user_properties += [("rubric", rubric), ("visibility", "public")]
        self.rubric = rubric

    def reportinfo(self):
        return self.path, None, f"{self.name} [{self.rubric}]"
