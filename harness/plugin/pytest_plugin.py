"""A pytest plugin: `pytest --game GAME --submission PATH` runs a game's cases against a
submission, one test item per case, so pytest's selection (-k, -x, --lf), its reports (-v,
--junitxml) and pytest-xdist (-n) work on grading as on any test suite.

It is loaded in every pytest run once the project is installed (entry point `pytest11`), so
without --game it does nothing and imports nothing of the harness (harness.plugin.session is
imported only when a game is asked for).
"""
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
    config.add_cleanup(run.close)
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


class CaseFile(pytest.File):
    """One case file: one item, named after the case."""

    def collect(self):
        case = self.config.stash[_RUN].cases[self.path.resolve()]
        yield CaseItem.from_parent(self, name=case.name, case=case)


class CaseFailed(Exception):
    """The case did not pass: its text is the harness's explanation."""


class HarnessFailed(Exception):
    """The harness failed on the case (not the program's fault): reported as an error."""


class CaseItem(pytest.Item):
    """A case: run while the item is set up (so a harness failure is pytest's error, not a
    failure of the program), judged when it is called."""

    def __init__(self, *, case, **kwargs):
        super().__init__(**kwargs)
        self.case = case
        self.verdict = None
        # -k RUBRIC selects an item's cases; -k hidden / -k public their visibility
        self.extra_keyword_matches.update({case.rubric, case.visibility})
        self.user_properties += [("rubric", case.rubric), ("points", case.points), ("visibility", case.visibility)]

    def setup(self) -> None:
        self.verdict = self.config.stash[_RUN].run(self.case)
        if self.verdict.status == "harness-error":
            raise HarnessFailed(self.verdict.text)

    def runtest(self) -> None:
        if self.verdict.status != "passed":
            raise CaseFailed(self.verdict.text)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, (CaseFailed, HarnessFailed)):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        return self.path, None, f"{self.case.name} [{self.case.rubric}]"
