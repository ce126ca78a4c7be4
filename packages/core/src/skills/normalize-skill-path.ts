import { SkillError } from './skill-error.js';

// Linux's PATH_MAX: a longer path cannot name a file anywhere a skill would be kept.
const maxPathLength = 4096;

/**
 * The path of a file inside a skill's folder, checked without touching any
 * storage: relative, `/`-separated, `.` parts dropped, and never climbing out
 * by `..`. Throws `SkillError` (`outside_skill`) for an absolute path (`/x`,
 * `C:\x`, `\\host`), a NUL character, or `..` that leaves the folder.
 * A reader of real folders must still refuse symbolic links that lead out.
 *
 * @example
 * normalizeSkillPath('pdf', './references//forms.md'); // 'references/forms.md'
 */
export function normalizeSkillPath(skill: string, path: string): string {
  const refuse = (why: string): never => {
    throw new SkillError('outside_skill', `The path '${shortened(path)}' ${why}`, { skill, path });
  };
  if (typeof path !== 'string' || path.trim() === '')
    refuse(
      `is empty; give a path relative to the folder of skill '${skill}', such as 'references/guide.md'.`,
    );
  if (path.includes('\0')) refuse('holds a NUL character; give a plain relative path.');
  if (path.length > maxPathLength) refuse(`is longer than ${maxPathLength} characters; give a shorter one.`);
  const slashed = path.replaceAll('\\', '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed))
    refuse(
      `is absolute; files of skill '${skill}' are read by their path relative to its folder, such as 'references/guide.md'.`,
    );
  const parts: string[] = [];
  for (const part of slashed.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0)
        refuse(
          `leaves the folder of skill '${skill}' ('..' may not climb out); only its own files can be read.`,
        );
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  if (parts.length === 0) refuse(`is the folder of skill '${skill}' itself; give a file inside it.`);
  return parts.join('/');
}

function shortened(text: string): string {
  return text.length <= 120 ? text : `${text.slice(0, 120)}… (${text.length} characters)`;
}
