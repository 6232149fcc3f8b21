"""Reference Officer server: implements docs/officer-api.md over a local folder, for tests, the demo and benchmarks."""
