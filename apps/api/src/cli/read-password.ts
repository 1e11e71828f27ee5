import readline from 'node:readline';

/**
 * Reads a password: at a terminal, a prompt whose typing is not echoed; otherwise the first line
 * of stdin (for scripts: `printf '%s\n' "$PW" | npm run user:create -- --username x`).
 */
export async function readPassword(prompt: string, input: NodeJS.ReadStream = process.stdin): Promise<string> {
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) {
      text += chunk;
      if (text.includes('\n')) break;
    }
    return text.split(/\r?\n/)[0];
  }
  const output = process.stderr;
  const rl = readline.createInterface({ input, output, terminal: true });
  // Echo nothing while the password is typed (the prompt itself is written once).
  (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => {};
  output.write(prompt);
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    output.write('\n');
    rl.close();
  }
}
