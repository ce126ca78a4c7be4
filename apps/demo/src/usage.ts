/** The `--help` text. */
export const usage = `agent-core: chat with an agent that uses tools; sessions and approvals survive restarts.

Usage:
  agent-core [options]                      the REPL: a line typed during a run steers it; /help lists commands
  agent-core chat "<prompt>" [options]      answer one prompt, streaming the reply (also: agent-core run)
  cat file | agent-core chat ["<prompt>"]   the prompt from stdin (or 'chat -'), the argument after it
  agent-core run "<prompt>" --no-input      headless: a call that needs approval pauses the run (exit code 3)
  agent-core approvals [--json]             every stored session waiting for a decision, with its calls
  agent-core approve SESSION [CALL...]      allow the waiting calls (all, or those named) and finish the run;
                [--deny [--reason TEXT]]    --deny refuses them instead
  agent-core sessions list [--limit N|--all] [--json]  stored sessions, newest first
  agent-core sessions show ID [--json]      a session's history (any unique start of an id works)
  agent-core sessions rm ID                 delete a session
  agent-core sessions repair ID             cut a damaged session back to its last consistent point
  agent-core replay SESSION                 re-run a stored session's prompts offline on its recorded replies with
                [--tools=recorded] [--update]  today's prompt, tools and orchestrator: exit 0 reproduced, 1 diverged
  agent-core skills list                    the Agent Skills sessions in this folder get, where each comes
                                            from, the ones hidden by another, and the broken ones with why
  agent-core skills validate [DIR]          check the skills in DIR (a skill or a folder of skills; default
                                            every folder skills are read from): exit code 1 on an error
  agent-core config init [--project] [--force]  write a commented config file
  agent-core config show                    the merged configuration and where each value came from
  agent-core config validate                check the config files; a bad key is named with its file and line
  agent-core acp [options]                  serve the agent to an editor (Zed, JetBrains, Neovim) over the
                                            Agent Client Protocol on stdin/stdout, with the config's store
  agent-core studio [--port N] [--open]     a local web app over the config's store: sessions, runs as
                [--host ADDRESS]            timelines, the approvals inbox; prints its address with a token
  agent-core worker --store postgres://...  run queued prompts with the configured agent, on any number of
                [--concurrency N]           machines; SIGTERM or Ctrl-C lets the runs in flight finish
  agent-core run --queue "<prompt>"         enqueue the prompt for the workers and wait for its answer
                [--no-wait] [--operation-id ID]   (approve of a queued session enqueues its resume too)

Options:
  -p, --provider <name>       anthropic, openai, mock (offline), or a [providers] name of the config
  -m, --model <name>          a model, or an alias from the config's [aliases]
      --base-url <url>        an OpenAI-compatible server (Ollama, vLLM, llama.cpp, OpenRouter)
      --provider-name <name>  what messages call that server (default: the host of --base-url)
  -o, --orchestrator <name>   agentic (default), react or plan-execute
  -t, --tools <packs>         comma-separated tool packs: basic (default), fs, shell
      --mcp '<command args>'  add the tools of an MCP server started with this command (repeatable)
      --policy <profile>      which calls need approval: strict, standard (default) or permissive
  -y, --yes                   allow every call the policy would ask about
      --no-input              never ask: a call that needs approval pauses the run and is stored
  -s, --session <id|new>      resume a stored session, or start a new one ('new')
  -c, --continue              resume the latest session started in this folder
      --no-session            keep this conversation in memory only (every other is stored)
      --store <path|url>      where sessions are stored: a folder (default ~/.local/share/agent-core/sessions)
                              or a postgres:// URL shared by every process that points at it
      --data-dir <dir>        the same as --store <dir>/sessions
      --context-window <n>    tokens of context for a model whose window is unknown
      --no-compact            never compact the history sent to the model
      --no-skills             no Agent Skills (.agents/skills/, .claude/skills/, ~/.config/agent-core/skills/)
      --json                  chat, run, approve: every event as one JSON line, after a line naming the
                              session; replay: its report; approvals, sessions list, sessions show: one document
      --update                replay: send the prompts to the live model instead, into a new session
      --queue                 with run: enqueue the prompt for 'agent-core worker' (a postgres:// store)
      --no-wait               with run --queue and approve of a queued session: return once enqueued
      --operation-id <id>     with run --queue: names the work, so the same command again runs nothing more
      --concurrency <n>       with worker: runs at once in this process (default 4)
      --hide-thinking         do not show the model's thinking
      --log-level <level>     log the run as JSON lines on stderr: debug, info, warn or error
      --trace                 print the run's OpenTelemetry span tree with durations on stderr
      --debug                 print the stack trace of an unexpected error
      --port <n>              studio: the port (default 4983; 0 for any free one)
      --host <address>        studio: the address to listen on (default 127.0.0.1, this machine only)
      --open                  studio: open its address in the default browser ($BROWSER if set)
  -h, --help                  show this help
  -v, --version               print the version

Configuration: flags, then environment (AGENT_CORE_*, ANTHROPIC_API_KEY, OPENAI_API_KEY), then
.agent-core/config.toml in this folder or above, then ~/.config/agent-core/config.toml, then defaults.
With no API key it runs on the offline mock model and says so.
Exit codes: 0 completed; 1 the run failed or ended otherwise; 2 usage or configuration error;
3 waiting for approval; 130 interrupted.
`;
