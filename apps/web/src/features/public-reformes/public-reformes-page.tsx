import { Anchor, Container, Group, Title } from '@mantine/core';
import { Link } from 'react-router';

/** /accueil, open to everyone: the published reforms (their list is built by its own issue). */
export function PublicReformesPage() {
  return (
    <Container component="main" size="lg" py="xl">
      <Group justify="space-between" mb="lg">
        <Title order={1}>Réformes publiées</Title>
        <Anchor component={Link} to="/auth/login">
          Se connecter
        </Anchor>
      </Group>
    </Container>
  );
}
