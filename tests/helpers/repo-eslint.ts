import { ESLint } from 'eslint';

/**
 * The repository's ESLint, for linting probe text at paths that exist in no TypeScript project:
 * the type-aware rules (eslint.config.js) need a real file in one, so they are left out here; the
 * rules these tests probe read syntax only.
 */
export const repoESLint = (cwd: string) =>
  new ESLint({
    cwd,
    overrideConfig: {
      languageOptions: { parserOptions: { projectService: false } },
      rules: { '@typescript-eslint/no-floating-promises': 'off' },
    },
  });
