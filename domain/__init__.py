"""The bottom layer: each app's rules and constants (money and ETAs, the sales process, labels), with no
import of the rest of the project. The seed generators (seed_data), the clones (apps), their tools and the
task templates (tasks) read them here, so a rule is written once. See docs/ARCHITECTURE.md."""
