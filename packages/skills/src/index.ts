export { discoverSkills } from './discover-skills.js';
export type {
  DiscoverSkillsOptions,
  DiscoveryLimits,
  ShadowedSkill,
  SkillDiscovery,
} from './discover-skills.js';
export type { DiscoveredSkill, SkillSource } from './discovered-skill.js';
export { skillFolders, userSkillsFolder } from './skill-folders.js';
export type { SkillFolder, SkillFolderOptions } from './skill-folders.js';
export { loadSkillFolder } from './load-skill-folder.js';
export type { LoadedSkillFolder, SkillFileLimits } from './load-skill-folder.js';
export { parseSkillFile } from './parse-skill-file.js';
export type { ParsedSkillFile, SkillFileContent } from './parse-skill-file.js';
export { parseFrontmatterYaml, YamlSubsetError } from './frontmatter-yaml.js';
export type { ParsedYaml, YamlMap, YamlValue } from './frontmatter-yaml.js';
export { skillFolderFiles } from './skill-folder-files.js';
export type { SkillFolderFilesOptions } from './skill-folder-files.js';
export { formatSkillProblem } from './skill-problem.js';
export type { SkillProblem } from './skill-problem.js';
export { validateSkills } from './validate-skills.js';
export type { SkillValidation } from './validate-skills.js';
