"""Random starts, one owner: a start found in a program's output (`reading`), the inputs a
strategy types from it (`planning`), runs drawn again until one can be graded, setup cases
settled and the law checked (`drawing`), and the exact test of the law of their values (`law`).
Every front door grades through `harness.grading.submission.Grader.grade`, which hands these
steps to `drawing`, so `harness grade`, `run`, `check`, Gradescope, the cluster, the audit and
the pytest plugin give one verdict. The spec's declaration is read by `harness.loading.random_start`.
"""
