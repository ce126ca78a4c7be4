/**
 * The file `agent-core config init` writes: every key the CLI reads, each
 * commented out with its default, so the file changes nothing until a line
 * is uncommented. `config validate` accepts it as written.
 */
export const configTemplate = `# agent-core configuration (TOML).
# Precedence: command-line flags, then environment variables, then the project file
# (.agent-core/config.toml in this folder or one above it), then this file, then defaults.
# 'agent-core config show' prints the merged result and where each value came from;
# 'agent-core config validate' checks this file and the project's.

# The provider when none is chosen: anthropic, openai, mock (offline), or a name from [providers].
# Default: anthropic with an Anthropic key, else openai with an OpenAI key, else mock.
# provider = "anthropic"

# The model, or an alias from [aliases]. Default: the provider's (claude-sonnet-5-5, gpt-5-mini).
# model = "claude-sonnet-5-5"

# How the agent works: agentic (tool loop), react (ReAct over text), plan-execute.
# orchestrator = "agentic"

# Tool packs: basic (calculator, clock), fs (files in the working folder), shell (commands).
# tools = ["basic"]

# Which tool calls need your approval: a profile (strict, standard, permissive) or a table.
# standard: reading is allowed, writing, running commands and network calls are asked about.
# policy = "standard"
# [policy]
# profile = "standard"
# tools = { calculator = "allow", shell = "ask" }   # per tool: allow, ask or deny
# risk = { network = "deny" }                       # per risk: read, write, execute, network

# A system prompt layer per mode: the policy profile in effect (an editor's mode picker,
# --policy, /policy in the REPL). It follows the identity, AGENTS.md and the tools.
# [mode_prompts]
# strict = "Only read and explain; describe changes instead of making them."

# Tokens of context for models whose window the provider does not know (servers on base_url).
# context_window = 32000

# Where sessions are stored: a folder (default ~/.local/share/agent-core/sessions).
# store = "/home/me/agent-sessions"

# Log the runs as JSON lines on stderr from this level on: debug, info, warn, error.
# log_level = "warn"

# Providers: keys (else ANTHROPIC_API_KEY / OPENAI_API_KEY), base URLs, and
# OpenAI-compatible servers under names of their own (type = "openai").
# [providers.anthropic]
# api_key = "sk-ant-..."
# [providers.openai]
# api_key = "sk-..."
# [providers.ollama]
# type = "openai"
# base_url = "http://127.0.0.1:11434/v1"
# model = "llama3.1"

# Model aliases: '--model fast' or '/model fast' in the REPL.
# [aliases]
# fast = "claude-haiku-4-5"
# local = { provider = "ollama", model = "llama3.1" }

# Agent Skills (folders with a SKILL.md): the project's .agents/skills/ and .claude/skills/
# (up to its repository root) shadow these folders, which shadow ~/.config/agent-core/skills/.
# The model sees each skill's name and description and loads one when a task needs it.
# [skills]
# enabled = true                  # false: no skills (or --no-skills)
# folders = ["~/team-skills"]     # more folders of skills
# user = true                     # false: leave out ~/.config/agent-core/skills
# allowed_tools = false           # true: a loaded skill's allowed-tools run without asking

# MCP servers whose tools the agent gets: a command (with args and env) or a URL.
# [mcp_servers.files]
# command = "npx"
# args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
# env = { LOG_LEVEL = "warn" }
# [mcp_servers.search]
# url = "http://127.0.0.1:3000/mcp"
# headers = { authorization = "Bearer ..." }

# 'agent-core worker': runs queued prompts ('agent-core run --queue') with this agent, on any
# number of machines sharing a postgres:// store, whose database holds the queue too.
# [worker]
# concurrency = 4          # runs at once per worker process (--concurrency)
# lease_ms = 30000         # how long a dead worker keeps its runs before another takes them
# drain_ms = 30000         # how long a stopping worker lets its runs finish before handing them on
# schema = "agent_core_workers"
`;
