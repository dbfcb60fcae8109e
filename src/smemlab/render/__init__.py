"""The one renderer: a run record as terminal tables, Markdown, CSV and plots, for the experiments
and the library benchmark alike, from the record alone (no experiment, no measuring code, no GPU).

- report.py: the experiments' tables (terminal, Markdown, CSV), the whole report.md, and write_all,
  which writes run.json, run.csv, every chart and report.md into a folder;
- charts.py: the experiments' charts (a bar chart each, and the ones an experiment has of its own);
- bench.py: the benchmark's rows as Markdown tables, where smemlab becomes the fastest, and charts.
"""
