"""Grading where courses already grade: Gradescope's autograder, PrairieLearn's external
graders and GitHub Classroom's autograding, each a front door over `grading.Grader` that writes
the platform's own results format from the harness's reports."""
