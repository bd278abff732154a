"""The server side: UIGymEnvironment (OpenEnv's Environment over uigym's envs) and the FastAPI app."""
