import { Alert } from '../../components/alert';

/** Variables read without a default that the preview was not given: a send without them renders them empty. */
export function MissingVariables({ names }: { names: string[] }) {
  return (
    <Alert tone="warning" title={names.length === 1 ? 'A variable is missing' : `${names.length} variables are missing`}>
      <span data-testid="missing-variables">
        {names.map((name, index) => (
          <span key={name}>
            {index > 0 && ', '}
            <code className="font-mono text-xs font-semibold">{name}</code>
          </span>
        ))}{' '}
        {names.length === 1 ? 'is' : 'are'} not given and {names.length === 1 ? 'renders' : 'render'} empty. Give {names.length === 1 ? 'it' : 'them'} in
        the JSON above, or a default in the template.
      </span>
    </Alert>
  );
}
