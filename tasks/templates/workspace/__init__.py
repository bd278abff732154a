"""Cross-app templates (README: "Workspace tasks"): tasks over the workspace's three worlds, graded on their joint
state (tables `<app>.<table>`). Each app's steps, checks and calls come from that app's own template helpers."""
