"""The schema fuzzing step of .ci/run: schemathesis against a live server in the embedded mode."""
